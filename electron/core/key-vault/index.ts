/**
 * The key-vault module (electron/core/key-vault/), its face: the one file other modules and the
 * fronts import from it. Keys kept by the operating system.
 */
export type { KeyVault } from './key-vault';
export {
  choosePasswordStore,
  hasPasswordStoreArgument,
  type PasswordStoreChoice,
} from './linux-password-store';
export { type KeySave, saveCheckedKey, type SaveKeyOptions } from './save-checked-key';
export { ServiceKeys } from './service-keys';
