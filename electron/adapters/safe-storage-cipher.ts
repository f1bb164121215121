/**
 * SecretCipher over Electron's safeStorage. safeStorage must not be touched before
 * `app.whenReady()` (on Linux it answers for the wrong backend, or crashes), so this adapter
 * answers "not ready" until main calls {@link SafeStorageCipher.markReady}.
 */
import { safeStorage } from 'electron';
import type { SecretCipher } from '../ports/secret-cipher';

/** Backends that protect the secret with a fixed, public password (or nothing known). */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

export class SafeStorageCipher implements SecretCipher {
  private ready = false;

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /** Call once, after `app.whenReady()` has resolved. */
  markReady(): void {
    this.ready = true;
  }

  isReady(): boolean {
    return this.ready;
  }

  isAvailable(): boolean {
    return this.ready && safeStorage.isEncryptionAvailable();
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

  encrypt(plain: string): Buffer {
    this.assertReady();
    return safeStorage.encryptString(plain);
  }

  decrypt(cipher: Buffer): string {
    this.assertReady();
    return safeStorage.decryptString(cipher);
  }

  private assertReady(): void {
    if (!this.ready) throw new Error('Encryption is not ready before the app has started.');
  }
}
