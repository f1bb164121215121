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

export class TestSecretCipher implements SecretCipher {
  isReady(): boolean {
    return true;
  }

  isAvailable(): boolean {
    return true;
  }

  /** A strong backend, so storing a key asks for no consent (as on a desktop with a keyring). */
  backend(): string {
    return 'gnome_libsecret';
  }

  isWeak(): boolean {
    return false;
  }

  async encrypt(plain: string): Promise<Buffer> {
    return Buffer.concat([PREFIX, mask(Buffer.from(plain, 'utf8'))]);
  }

  async decrypt(cipher: Buffer): Promise<DecryptedSecret> {
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
