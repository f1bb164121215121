/**
 * SecretCipher over Electron's safeStorage, through its asynchronous API (the synchronous calls
 * are deprecated in Electron 45; data they wrote decrypts with the asynchronous one). safeStorage
 * must not be touched before `app.whenReady()` (on Linux it answers for the wrong backend, or
 * crashes), so this adapter answers "not ready" until main awaits {@link SafeStorageCipher.markReady}.
 */
import { safeStorage } from 'electron';
import type { DecryptedSecret, SecretCipher } from '../ports/secret-cipher';

/** Backends that protect the secret with a fixed, public password (or nothing known). */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

export class SafeStorageCipher implements SecretCipher {
  private ready = false;
  private available = false;

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /** Call once, after `app.whenReady()` has resolved: initialises the asynchronous encryptor. */
  async markReady(): Promise<void> {
    this.available = await safeStorage.isAsyncEncryptionAvailable().catch(() => false);
    this.ready = true;
  }

  isReady(): boolean {
    return this.ready;
  }

  isAvailable(): boolean {
    return this.ready && this.available;
  }

  backend(): string {
    if (this.platform === 'darwin') return 'keychain';
    if (this.platform === 'win32') return 'dpapi';
    if (this.platform === 'linux' && this.ready) return safeStorage.getSelectedStorageBackend();
    return 'unknown';
  }

  isWeak(): boolean {
    return WEAK_BACKENDS.has(this.backend());
  }

  async encrypt(plain: string): Promise<Buffer> {
    this.assertReady();
    return safeStorage.encryptStringAsync(plain);
  }

  async decrypt(cipher: Buffer): Promise<DecryptedSecret> {
    this.assertReady();
    const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(cipher);
    return { text: result, shouldReEncrypt };
  }

  private assertReady(): void {
    if (!this.ready) throw new Error('Encryption is not ready before the app has started.');
  }
}
