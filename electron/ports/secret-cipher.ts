/**
 * The operating system's secret encryption (Electron's `safeStorage` in the app, an in-memory
 * fake in tests). The key vault keeps only what this port encrypts.
 */
export interface SecretCipher {
  /**
   * True once the app is ready and the cipher may be asked anything; before that every other
   * answer is provisional and `encrypt`/`decrypt` throw.
   */
  isReady(): boolean;
  /** False before the app is ready, or when the OS cannot encrypt at all (no keyring, no keychain). */
  isAvailable(): boolean;
  /**
   * Resolves once the cipher is ready, where it becomes ready by itself after start-up (the app's
   * safeStorage, whose first answer may wait on a keychain prompt): what needs the key waits on
   * this rather than on start-up. Absent: the cipher is as ready as it will be.
   */
  whenReady?(): Promise<void>;
  /**
   * Which store protects the secret: on Linux the selected backend (`basic_text`,
   * `gnome_libsecret`, `kwallet`, `kwallet5`, `kwallet6`, `unknown`), `keychain` on macOS,
   * `dpapi` on Windows.
   */
  backend(): string;
  /** True when the backend is effectively plain text (Linux `basic_text`, or `unknown`). */
  isWeak(): boolean;
  /** @throws (rejects) when the cipher is not ready or the OS refuses. */
  encrypt(plain: string): Promise<Buffer>;
  /**
   * The text, and whether it should be encrypted again (the OS rotated its key or offers a
   * stronger one: Electron's `shouldReEncrypt`). Reads data written by the old synchronous API.
   * @throws (rejects) when the bytes cannot be decrypted (another machine or user, a reset keyring).
   */
  decrypt(cipher: Buffer): Promise<DecryptedSecret>;
}

export interface DecryptedSecret {
  readonly text: string;
  readonly shouldReEncrypt: boolean;
}
