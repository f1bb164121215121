import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The slice of Electron 45's safeStorage the adapter uses, recording every call. The old
 * synchronous API is here only to show it is never called (it is deprecated in Electron 45).
 */
const safeStorage = vi.hoisted(() => ({
  calls: [] as string[],
  available: true,
  backend: 'gnome_libsecret',
  reEncrypt: false,
  async isAsyncEncryptionAvailable() {
    safeStorage.calls.push('isAsyncEncryptionAvailable');
    return safeStorage.available;
  },
  getSelectedStorageBackend() {
    safeStorage.calls.push('getSelectedStorageBackend');
    return safeStorage.backend;
  },
  async encryptStringAsync(plain: string) {
    safeStorage.calls.push('encryptStringAsync');
    return Buffer.from(`enc:${plain}`);
  },
  async decryptStringAsync(cipher: Buffer) {
    safeStorage.calls.push('decryptStringAsync');
    return {
      result: cipher.toString().replace(/^enc:/, ''),
      shouldReEncrypt: safeStorage.reEncrypt,
    };
  },
  isEncryptionAvailable: () => safeStorage.calls.push('deprecated isEncryptionAvailable'),
  encryptString: () => safeStorage.calls.push('deprecated encryptString'),
  decryptString: () => safeStorage.calls.push('deprecated decryptString'),
}));
vi.mock('electron', () => ({ safeStorage }));

const { SafeStorageCipher } = await import('../../../electron/adapters/safe-storage-cipher');

beforeEach(() => {
  safeStorage.calls.length = 0;
  safeStorage.available = true;
  safeStorage.backend = 'gnome_libsecret';
  safeStorage.reEncrypt = false;
});

describe('SafeStorageCipher before the app is ready', () => {
  it.each(['linux', 'darwin', 'win32'] as const)(
    'on %s answers "not ready" and never touches safeStorage',
    async (platform) => {
      const cipher = new SafeStorageCipher(platform);
      expect(cipher.isReady()).toBe(false);
      expect(cipher.isAvailable()).toBe(false);
      cipher.backend();
      cipher.isWeak();
      await expect(cipher.encrypt('secret')).rejects.toThrow(/not ready/);
      await expect(cipher.decrypt(Buffer.from('enc:secret'))).rejects.toThrow(/not ready/);
      expect(safeStorage.calls).toEqual([]);
    },
  );

  it('reports the Linux backend as unknown (weak) until ready', () => {
    const cipher = new SafeStorageCipher('linux');
    expect(cipher.backend()).toBe('unknown');
    expect(cipher.isWeak()).toBe(true);
  });
});

describe('SafeStorageCipher once ready', () => {
  it.each([
    ['darwin', 'keychain', false],
    ['win32', 'dpapi', false],
    ['freebsd', 'unknown', true],
  ] as const)('on %s names the backend %s (weak: %s)', async (platform, backend, weak) => {
    const cipher = new SafeStorageCipher(platform);
    await cipher.markReady();
    expect(cipher.backend()).toBe(backend);
    expect(cipher.isWeak()).toBe(weak);
    expect(safeStorage.calls).not.toContain('getSelectedStorageBackend');
  });

  it.each([
    ['gnome_libsecret', false],
    ['kwallet', false],
    ['kwallet5', false],
    ['kwallet6', false],
    ['basic_text', true],
    ['unknown', true],
  ])('on Linux asks safeStorage for the backend: %s (weak: %s)', async (backend, weak) => {
    safeStorage.backend = backend;
    const cipher = new SafeStorageCipher('linux');
    await cipher.markReady();
    expect(cipher.backend()).toBe(backend);
    expect(cipher.isWeak()).toBe(weak);
  });

  it('uses only the asynchronous API, and passes shouldReEncrypt on', async () => {
    const cipher = new SafeStorageCipher('linux');
    await cipher.markReady();
    expect(cipher.isReady()).toBe(true);
    expect(cipher.isAvailable()).toBe(true);
    const encrypted = await cipher.encrypt('secret');
    expect(encrypted.toString()).toBe('enc:secret');
    expect(await cipher.decrypt(encrypted)).toEqual({ text: 'secret', shouldReEncrypt: false });
    safeStorage.reEncrypt = true;
    expect(await cipher.decrypt(encrypted)).toEqual({ text: 'secret', shouldReEncrypt: true });
    expect(safeStorage.calls).toEqual([
      'isAsyncEncryptionAvailable',
      'encryptStringAsync',
      'decryptStringAsync',
      'decryptStringAsync',
    ]);
  });

  it('is unavailable when the asynchronous encryptor is', async () => {
    safeStorage.available = false;
    const cipher = new SafeStorageCipher('linux');
    await cipher.markReady();
    expect(cipher.isAvailable()).toBe(false);
  });
});

describe('SafeStorageCipher while safeStorage has not answered (a keychain prompt)', () => {
  it('is not ready, and an encrypt or decrypt asked meanwhile waits for the answer', async () => {
    let answer: (available: boolean) => void = () => undefined;
    const probe = vi
      .spyOn(safeStorage, 'isAsyncEncryptionAvailable')
      .mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const cipher = new SafeStorageCipher('darwin');
    const ready = cipher.markReady();
    expect(cipher.isReady()).toBe(false);
    const decrypted = cipher.decrypt(Buffer.from('enc:secret'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(safeStorage.calls).toEqual([]);
    answer(true);
    await ready;
    expect(cipher.isReady()).toBe(true);
    expect((await decrypted).text).toBe('secret');
    // Asked once, however often markReady is called.
    await cipher.markReady();
    expect(probe).toHaveBeenCalledTimes(1);
    probe.mockRestore();
  });
});
