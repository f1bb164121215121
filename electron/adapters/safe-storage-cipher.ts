/**
 * SecretCipher over Electron's safeStorage, through its asynchronous API (the synchronous calls
 * are deprecated in Electron 45; data they wrote decrypts with the asynchronous one). safeStorage
 * must not be touched before `app.whenReady()` (on Linux it answers for the wrong backend, or
 * crashes), so this adapter answers "not ready" until main calls {@link SafeStorageCipher.markReady}.
 * Its first answer may wait on the OS (a macOS keychain prompt for an item another build made):
 * start-up does not wait for it, and an encrypt or decrypt asked meanwhile waits instead.
 */
import { safeStorage } from 'electron';
import type { DecryptedSecret, SecretCipher } from '../ports/secret-cipher';

/** Backends that protect the secret with a fixed, public password (or nothing known). */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

export class SafeStorageCipher implements SecretCipher {
  private ready = false;
  private available = false;
  private probe: Promise<void> | null = null;

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /** Call after `app.whenReady()` has resolved: initialises the asynchronous encryptor (once). */
  markReady(): Promise<void> {
    this.probe ??= safeStorage
      .isAsyncEncryptionAvailable()
      .catch(() => false)
      .then((available) => {
        this.available = available;
        this.ready = true;
      });
    return this.probe;
  }

  /** Resolves once {@link markReady}'s answer is in (at once when it was never asked). */
  whenReady(): Promise<void> {
    return this.probe ?? Promise.resolve();
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
    await this.whenReady();
    this.assertReady();
    return safeStorage.encryptStringAsync(plain);
  }

  async decrypt(cipher: Buffer): Promise<DecryptedSecret> {
    await this.whenReady();
    this.assertReady();
    const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(cipher);
    return { text: result, shouldReEncrypt };
  }

  private assertReady(): void {
    if (!this.ready) throw new Error('Encryption is not ready before the app has started.');
  }
}
