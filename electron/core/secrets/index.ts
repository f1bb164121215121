/**
 * The secrets module's face (electron/core/secrets/): its doors are the exports below, the only
 * names other modules and the fronts import from it. What a key may look like (`key-text`) and
 * where it may echo back (`key-echo*`), under the log and the service.
 */
export { KEY_RUN, carriesKey, scrubKey, type SecretKeys } from './key-echo';
export { KeyVaultError, checkKeyText, isPlausibleKey, keyTextProblem } from './key-text';
export { keyCarriers } from './key-echo-many';
export {
  heldKeyScrubber,
  heldKeyScrubberOrNone,
  keptIdScrubberOf,
  type HeldKeys,
} from './held-key-scrub';
