/**
 * A deterministic SecretCipher for the chromium host. It stands in for the OS keyring: the key
 * is stored as ciphertext (never its text), and a restart of the harness decrypts it again,
 * because the "machine" is the same. Not security: security is the keyring's job in the app.
 */
import type { DecryptedSecret, SecretCipher } from '../../../electron/ports/secret-cipher';

const PREFIX = Buffer.from('pictor-e2e:');
const MASK = 0x5a;

function mask(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.map((byte) => byte ^ MASK));
}

/** Chromium host: the keyring's first answer never comes (a prompt nobody answers). */
export const KEYRING_HELD_ENV = 'PICTOR_E2E_KEYRING_HELD';

export class TestSecretCipher implements SecretCipher {
  /** `held`: not ready, and {@link whenReady} never resolves (a keyring prompt left open). */
  constructor(private readonly held = false) {}

  isReady(): boolean {
    return !this.held;
  }

  isAvailable(): boolean {
    return !this.held;
  }

  whenReady(): Promise<void> {
    return this.held ? new Promise<void>(() => undefined) : Promise.resolve();
  }

  /** A strong backend, so storing a key asks for no consent (as on a desktop with a keyring). */
  backend(): string {
    return 'gnome_libsecret';
  }

  isWeak(): boolean {
    return false;
  }

  async encrypt(plain: string): Promise<Buffer> {
    await this.whenReady();
    return Buffer.concat([PREFIX, mask(Buffer.from(plain, 'utf8'))]);
  }

  async decrypt(cipher: Buffer): Promise<DecryptedSecret> {
    await this.whenReady();
    return { text: TestSecretCipher.reveal(cipher), shouldReEncrypt: false };
  }

  /** The text behind a ciphertext this cipher wrote (tests read the vault file with it). */
  static reveal(cipher: Buffer): string {
    if (!cipher.subarray(0, PREFIX.length).equals(PREFIX)) {
      throw new Error('Error while decrypting the ciphertext');
    }
    return mask(cipher.subarray(PREFIX.length)).toString('utf8');
  }
}
