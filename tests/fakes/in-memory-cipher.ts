import type { DecryptedSecret, SecretCipher } from '../../electron/ports/secret-cipher';

/** How decrypt misbehaves, for the vault's failure states. */
export type DecryptFault = 'none' | 'throws' | 'garbage' | 'empty' | 'other-key';

/**
 * A SecretCipher in memory. Ciphertext is `<machine>:` + the text XOR-ed, so it is not the key
 * in the clear and another "machine" (another instance with a different name) cannot read it.
 * Every answer can be changed mid-test: ready, available, backend, and a decrypt fault.
 *
 * It models Electron 45's two APIs: {@link InMemoryCipher.encryptLegacy} writes what the old
 * synchronous `encryptString` did (`v10:` before the machine), which `decrypt` (the asynchronous
 * API) still reads, as Electron documents. Whether the OS then asks for it to be encrypted again
 * is its own call; the fake always asks (the path with more to get wrong).
 */
export class InMemoryCipher implements SecretCipher {
  ready: boolean;
  available: boolean;
  currentBackend: string;
  decryptFault: DecryptFault = 'none';
  encryptThrows = false;
  /** The next decrypts say the OS wants the data encrypted again (a rotated key). */
  askReEncrypt = false;
  readonly calls = { encrypt: 0, decrypt: 0 };
  /** Runs at the start of every encrypt (a test's way into the gap while the OS works). */
  onEncrypt: (() => void) | null = null;

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

  /** What a release on Electron's synchronous `safeStorage.encryptString` wrote. */
  encryptLegacy(plain: string): Buffer {
    return Buffer.concat([legacyPrefix(), this.encryptNow(plain)]);
  }

  async encrypt(plain: string): Promise<Buffer> {
    this.calls.encrypt += 1;
    this.onEncrypt?.();
    if (!this.isAvailable() || this.encryptThrows) throw new Error('encryption refused');
    return this.encryptNow(plain);
  }

  async decrypt(cipher: Buffer): Promise<DecryptedSecret> {
    const prefix = legacyPrefix();
    const legacy = cipher.subarray(0, prefix.length).equals(prefix);
    const text = this.decryptText(legacy ? cipher.subarray(prefix.length) : cipher);
    return { text, shouldReEncrypt: legacy || this.askReEncrypt };
  }

  private encryptNow(plain: string): Buffer {
    return Buffer.concat([Buffer.from(`${this.machine}:`), xor(Buffer.from(plain, 'utf8'))]);
  }

  private decryptText(cipher: Buffer): string {
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

/**
 * An OS storage whose first answer waits until the test gives it (a keychain prompt the user
 * answers): after {@link HeldCipher.hold} it is not ready, and {@link HeldCipher.whenReady} (what
 * the vaults wait on, as on the app's safeStorage) resolves once {@link HeldCipher.answer}ed.
 * After {@link HeldCipher.holdDecrypt} it is ready, but each decrypt waits (a prompt asked during
 * the decrypt itself) until {@link HeldCipher.answerDecrypt}.
 */
export class HeldCipher extends InMemoryCipher {
  /** How often the vaults waited for the answer: a read that waits for it has begun. */
  waits = 0;
  /** Decrypts begun while held ({@link holdDecrypt}). */
  heldDecrypts = 0;
  #answered: Promise<void> = Promise.resolve();
  #answer: () => void = () => undefined;
  #decryptAnswered: Promise<void> | null = null;
  #answerDecrypt: () => void = () => undefined;

  holdDecrypt(): void {
    this.#decryptAnswered = new Promise((resolve) => {
      this.#answerDecrypt = () => {
        this.#decryptAnswered = null;
        resolve();
      };
    });
  }

  answerDecrypt(): void {
    this.#answerDecrypt();
  }

  override async decrypt(cipher: Buffer): Promise<DecryptedSecret> {
    if (this.#decryptAnswered) {
      this.heldDecrypts += 1;
      await this.#decryptAnswered;
    }
    return super.decrypt(cipher);
  }

  hold(): void {
    this.ready = false;
    this.#answered = new Promise((resolve) => {
      this.#answer = () => {
        this.ready = true;
        resolve();
      };
    });
  }

  answer(): void {
    this.#answer();
  }

  whenReady(): Promise<void> {
    this.waits += 1;
    return this.#answered;
  }
}

/**
 * The prefix of an older Chromium's ciphertext. Made when used, not when the module loads: the
 * UI bench's page imports this file (through tests/support/own-address.ts) and has no Buffer.
 */
const legacyPrefix = (): Buffer => Buffer.from('v10:');

function xor(bytes: Buffer): Buffer {
  return Buffer.from(bytes.map((byte) => byte ^ 0x5a));
}
