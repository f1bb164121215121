import type { SecretCipher } from '../../electron/ports/secret-cipher';

/** How decrypt misbehaves, for the vault's failure states. */
export type DecryptFault = 'none' | 'throws' | 'garbage' | 'empty' | 'other-key';

/**
 * A SecretCipher in memory. Ciphertext is `<machine>:` + the text XOR-ed, so it is not the key
 * in the clear and another "machine" (another instance with a different name) cannot read it.
 * Every answer can be changed mid-test: ready, available, backend, and a decrypt fault.
 */
export class InMemoryCipher implements SecretCipher {
  ready: boolean;
  available: boolean;
  currentBackend: string;
  decryptFault: DecryptFault = 'none';
  encryptThrows = false;
  readonly calls = { encrypt: 0, decrypt: 0 };

  private readonly machine: string;

  constructor(
    options: { ready?: boolean; available?: boolean; backend?: string; machine?: string } = {},
  ) {
    this.machine = options.machine ?? 'machine-a';
    this.ready = options.ready ?? true;
    this.available = options.available ?? true;
    this.currentBackend = options.backend ?? 'gnome_libsecret';
  }

  isReady(): boolean {
    return this.ready;
  }

  isAvailable(): boolean {
    return this.ready && this.available;
  }

  backend(): string {
    return this.currentBackend;
  }

  isWeak(): boolean {
    return this.currentBackend === 'basic_text' || this.currentBackend === 'unknown';
  }

  encrypt(plain: string): Buffer {
    this.calls.encrypt += 1;
    if (!this.isAvailable() || this.encryptThrows) throw new Error('encryption refused');
    return Buffer.concat([Buffer.from(`${this.machine}:`), xor(Buffer.from(plain, 'utf8'))]);
  }

  decrypt(cipher: Buffer): string {
    this.calls.decrypt += 1;
    if (!this.isAvailable()) throw new Error('decryption not available');
    if (this.decryptFault === 'throws') throw new Error('Error while decrypting the ciphertext');
    if (this.decryptFault === 'empty') return '';
    if (this.decryptFault === 'garbage') return '\u0000\u00ff\u0007garbled';
    if (this.decryptFault === 'other-key') return 'sk-another-valid-looking-key';
    const prefix = Buffer.from(`${this.machine}:`);
    if (!cipher.subarray(0, prefix.length).equals(prefix)) {
      throw new Error('Error while decrypting the ciphertext');
    }
    return xor(cipher.subarray(prefix.length)).toString('utf8');
  }
}

function xor(bytes: Buffer): Buffer {
  return Buffer.from(bytes.map((byte) => byte ^ 0x5a));
}
