/**
 * The secrets module (electron/core/secrets/), its face: the one file other modules and the fronts
 * import from it. What a key may look like (`key-text`) and where it may echo back (`key-echo*`),
 * under the log and the service.
 */
export { KEY_RUN, carriesKey, scrubKey } from './key-echo';
export { KeyVaultError, checkKeyText, isPlausibleKey, keyTextProblem } from './key-text';
