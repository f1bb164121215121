import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, UNREAD_SETTINGS } from '../../../shared/domain/settings';
import { KeyVault } from '../../../electron/core/key-vault/key-vault';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/*
 * The REAL electron-store, on real files. In plain Node, electron-store's own `import 'electron'`
 * loads the npm package `electron`, whose main file returns the path of the Electron binary and
 * tries to download it when missing (this machine cannot). vi.mock cannot reach an import made
 * inside node_modules, so instead the package is told where a binary would be: it then returns a
 * path string without downloading, electron-store finds no `app` (as in any non-Electron process)
 * and, given `cwd`, works exactly as in the app.
 */
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});

const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const CORRUPT_NAME = 'settings.corrupt-2026-01-15T12-00-00-000Z.json';
let dir: string;

beforeEach(async () => {
  dir = await tempFolder('kv');
});
afterEach(async () => {
  await removeFolder(dir);
});

describe('ElectronStoreKv', () => {
  it('keeps JSON values by key in <cwd>/<name>.json, dots in keys taken literally', () => {
    const kv = new ElectronStoreKv({ cwd: dir, name: 'settings' });
    expect(kv.path).toBe(join(dir, 'settings.json'));
    expect(kv.get('missing')).toBeUndefined();
    kv.set('settings', { theme: 'dark', count: 2 });
    kv.set('a.b', 1);
    expect(kv.get('settings')).toEqual({ theme: 'dark', count: 2 });
    expect(JSON.parse(readFileSync(kv.path, 'utf8'))).toEqual({
      settings: { theme: 'dark', count: 2 },
      'a.b': 1,
    });
    kv.delete('a.b');
    kv.set('settings', undefined);
    expect(JSON.parse(readFileSync(kv.path, 'utf8'))).toEqual({});
    expect(new ElectronStoreKv({ cwd: dir, name: 'other' }).get('settings')).toBeUndefined();
  });

  it('throws on a file that is not JSON, and starts empty once it is moved aside', () => {
    writeFileSync(join(dir, 'settings.json'), '{"settings": {"theme": "da');
    const kv = new ElectronStoreKv({ cwd: dir, name: 'settings' });
    expect(() => kv.get('settings')).toThrow(SyntaxError);
    expect(() => kv.set('settings', {})).toThrow(SyntaxError);
    const copy = kv.moveAside('corrupt-1');
    expect(copy).toBe(join(dir, 'settings.corrupt-1.json'));
    expect(readFileSync(copy!, 'utf8')).toBe('{"settings": {"theme": "da');
    expect(kv.get('settings')).toBeUndefined();
    kv.set('settings', { theme: 'light' });
    expect(kv.get('settings')).toEqual({ theme: 'light' });
  });

  it('notices a file damaged while it is open (every read goes to the file)', () => {
    const kv = new ElectronStoreKv({ cwd: dir, name: 'settings' });
    kv.set('settings', { theme: 'dark' });
    writeFileSync(kv.path, 'garbage');
    expect(() => kv.get('settings')).toThrow(SyntaxError);
  });

  it('moves nothing aside when there is no file', () => {
    const kv = new ElectronStoreKv({ cwd: dir, name: 'settings' });
    expect(kv.moveAside('corrupt-1')).toBeNull();
  });
});

describe('a corrupted settings file, with the real electron-store', () => {
  async function storeKey(): Promise<string> {
    const vault = new KeyVault({
      store: new ElectronStoreKv({ cwd: dir, name: 'key-vault' }),
      cipher: new InMemoryCipher(),
      now: () => NOW,
    });
    await vault.setKey('sk-real-file-key-123', { allowWeakStorage: false, baseUrl: null });
    return readFileSync(join(dir, 'key-vault.json'), 'utf8');
  }

  it('is reported, kept aside and replaced by defaults; the key file is untouched', async () => {
    const vaultBefore = await storeKey();
    writeFileSync(join(dir, 'settings.json'), '\u0000\u0000 not json at all');
    const settings = new SettingsService({
      store: new ElectronStoreKv({ cwd: dir, name: 'settings' }),
      now: () => NOW,
    });
    expect(settings.get()).toEqual(UNREAD_SETTINGS);
    expect(settings.takeProblems().map((problem) => problem.message)).toEqual([
      `Your settings file was damaged and has been reset to defaults; a copy was kept at ${join(dir, CORRUPT_NAME)}. Two of those defaults are on their cautious side, as you may have chosen: updates are only checked and announced, and input images are never uploaded.`,
    ]);
    expect(readFileSync(join(dir, CORRUPT_NAME), 'utf8')).toBe('\u0000\u0000 not json at all');
    // In its place the cautious stand-ins, so the next start reads what this one shows.
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({
      settings: { updateMode: 'notify', neverUploadInputs: true },
    });

    settings.update({ theme: 'dark' });
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({
      settings: { theme: 'dark' },
    });
    expect(readFileSync(join(dir, 'key-vault.json'), 'utf8')).toBe(vaultBefore);
    const vault = new KeyVault({
      store: new ElectronStoreKv({ cwd: dir, name: 'key-vault' }),
      cipher: new InMemoryCipher(),
      now: () => NOW,
    });
    expect(await vault.readKey()).toBe('sk-real-file-key-123');
  });

  it('repairs values that fail the schema field by field and rewrites the file', () => {
    writeFileSync(
      join(dir, 'settings.json'),
      // A theme no version writes (a newer one's name is kept: newer-settings-values.test.ts).
      JSON.stringify({ settings: { theme: 'neon lights', defaultCount: 3 }, windowBounds: 'wide' }),
    );
    const settings = new SettingsService({
      store: new ElectronStoreKv({ cwd: dir, name: 'settings' }),
      now: () => NOW,
    });
    expect(settings.get()).toEqual({ ...DEFAULT_SETTINGS, defaultCount: 3 });
    expect(settings.takeProblems()[0]?.message).toMatch(
      /^The setting “theme” had a value Pictor cannot use and was reset to its default\./,
    );
    expect(settings.getWindowBounds()).toBeNull();
    // Only the bad value replaced, the rest as the file held it.
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({
      settings: { theme: DEFAULT_SETTINGS.theme, defaultCount: 3 },
    });
    // Beside them, the file's lock (adapters/store-lock.ts): an empty file that stays.
    expect(readdirSync(dir).sort()).toEqual([CORRUPT_NAME, 'settings.json', 'settings.json.lock']);
  });
});
