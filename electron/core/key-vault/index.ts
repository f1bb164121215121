/**
 * The key-vault module's face (electron/core/key-vault/): its doors are the exports below, the only
 * names other modules and the fronts import from it. Keys kept by the operating system.
 */
export type { KeyVault } from './key-vault';
export {
  choosePasswordStore,
  hasPasswordStoreArgument,
  type PasswordStoreChoice,
} from './linux-password-store';
export { type KeySave, saveCheckedKey, type SaveKeyOptions } from './save-checked-key';
export { ServiceKeys } from './service-keys';
