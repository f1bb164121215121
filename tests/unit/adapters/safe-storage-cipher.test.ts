import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The slice of Electron's safeStorage the adapter uses, recording every call. */
const safeStorage = vi.hoisted(() => ({
  calls: [] as string[],
  available: true,
  backend: 'gnome_libsecret',
  isEncryptionAvailable() {
    safeStorage.calls.push('isEncryptionAvailable');
    return safeStorage.available;
  },
  getSelectedStorageBackend() {
    safeStorage.calls.push('getSelectedStorageBackend');
    return safeStorage.backend;
  },
  encryptString(plain: string) {
    safeStorage.calls.push('encryptString');
    return Buffer.from(`enc:${plain}`);
  },
  decryptString(cipher: Buffer) {
    safeStorage.calls.push('decryptString');
    return cipher.toString().replace(/^enc:/, '');
  },
}));
vi.mock('electron', () => ({ safeStorage }));

const { SafeStorageCipher } = await import('../../../electron/adapters/safe-storage-cipher');

beforeEach(() => {
  safeStorage.calls.length = 0;
  safeStorage.available = true;
  safeStorage.backend = 'gnome_libsecret';
});

describe('SafeStorageCipher before the app is ready', () => {
  it.each(['linux', 'darwin', 'win32'] as const)(
    'on %s answers "not ready" and never touches safeStorage',
    (platform) => {
      const cipher = new SafeStorageCipher(platform);
      expect(cipher.isReady()).toBe(false);
      expect(cipher.isAvailable()).toBe(false);
      cipher.backend();
      cipher.isWeak();
      expect(() => cipher.encrypt('secret')).toThrow(/not ready/);
      expect(() => cipher.decrypt(Buffer.from('enc:secret'))).toThrow(/not ready/);
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
  ] as const)('on %s names the backend %s (weak: %s)', (platform, backend, weak) => {
    const cipher = new SafeStorageCipher(platform);
    cipher.markReady();
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
  ])('on Linux asks safeStorage for the backend: %s (weak: %s)', (backend, weak) => {
    safeStorage.backend = backend;
    const cipher = new SafeStorageCipher('linux');
    cipher.markReady();
    expect(cipher.backend()).toBe(backend);
    expect(cipher.isWeak()).toBe(weak);
  });

  it('follows safeStorage on availability and passes encrypt/decrypt through', () => {
    const cipher = new SafeStorageCipher('linux');
    cipher.markReady();
    expect(cipher.isReady()).toBe(true);
    expect(cipher.isAvailable()).toBe(true);
    safeStorage.available = false;
    expect(cipher.isAvailable()).toBe(false);
    const encrypted = cipher.encrypt('secret');
    expect(encrypted.toString()).toBe('enc:secret');
    expect(cipher.decrypt(encrypted)).toBe('secret');
    expect(safeStorage.calls).toEqual([
      'isEncryptionAvailable',
      'isEncryptionAvailable',
      'encryptString',
      'decryptString',
    ]);
  });
});
