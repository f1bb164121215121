/**
 * The key-vault module's face (electron/core/key-vault/): its doors are the exports below, the only
 * names other modules and the fronts import from it. Keys kept by the operating system: each
 * service's in its own vault file (`key-vault-<provider>.json`), encrypted; the file earlier
 * versions kept the user's own service's key in (`key-vault.json`) is moved into that service's
 * file once, its record as it was, never decrypted (earlier-key-file.ts).
 */
export type { KeyVault } from './key-vault';
export {
  choosePasswordStore,
  hasPasswordStoreArgument,
  type PasswordStoreChoice,
} from './linux-password-store';
export { type KeySave, saveCheckedKey, type SaveKeyOptions } from './save-checked-key';
export { ServiceKeys } from './service-keys';
