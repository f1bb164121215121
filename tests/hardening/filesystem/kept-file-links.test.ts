/**
 * settings.json and a key vault are Pictor's own files in its data folder: what stands at their
 * names is read only when it is a regular file itself (core/fs/private-files.ts
 * readKeptFileSync), as it is tightened only then (tightenFileSync, which leaves a link as it is)
 * and as no write goes through it. Before, both stores read through a link (a dotfiles manager's,
 * or one another local user left while the data folder was open to others: its target decided
 * the settings, among them the local servers a key may go to), the app's store (electron-store)
 * wrote over the link's target (any file of the user's replaced by the settings, made 0600, or
 * the vault's key record put wherever the link pointed), and a FIFO there held the read, and the
 * app's start, until something wrote into it. Now the app sets the thing aside as itself (a link
 * renamed, its target as it was), tells the user and goes on in a regular file of its own; a
 * command refuses the file and changes nothing; the vault sets it aside as damaged. A regular
 * file another user owns (left while the folder was open) is not read either: a command read
 * it, and the app only refused it when tightening it failed (never as root). Real files, links,
 * FIFOs and (as root) a device that reads without end, on this disk.
 */
import { spawnSync } from 'node:child_process';
import {
  chmod,
  chown,
  lstat,
  readFile,
  readlink,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { KeyVault } from '../../../electron/core/key-vault/key-vault';
import { EditSettings } from '../../../electron/core/settings/edit-settings';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { silentLogger } from '../../../electron/ports/logger';
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { fifoMaker, makeFifo } from '../../support/tools';
import { plantedLinkFolders } from './planted-link-fixture';

// electron-store in plain Node (tests/unit/adapters/electron-store-kv.test.ts says why).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const posix = process.platform !== 'win32';
const NOW = Date.UTC(2026, 11, 2);
const ASIDE = 'corrupt-2026-12-02T00-00-00-000Z';
const NOBODY = 65534;

/** The user's own settings file elsewhere (a dotfiles folder), which a link may point at. */
const LINKED = 'linked-settings.json';
const LINKED_TEXT = `${JSON.stringify({ settings: { theme: 'dark' } })}\n`;

const folders = plantedLinkFolders('kept-file-links', ['notes.txt']);
let data: string;
let theirs: string;
beforeEach(async () => {
  ({ data, theirs } = folders);
  await writeFile(join(theirs, LINKED), LINKED_TEXT, { mode: 0o644 });
});

/** What may stand at a kept file's name that is not a regular file of its own. */
const NOT_OWN: readonly (readonly [string, (at: string) => Promise<void>])[] = [
  ['a link to a settings file of the user’s', (at) => symlink(join(theirs, LINKED), at)],
  ['a link to nowhere', (at) => symlink(join(theirs, 'gone.json'), at)],
  ...(fifoMaker().path === null
    ? []
    : ([
        ['a FIFO', async (at: string) => makeFifo(fifoMaker(), at)],
        [
          'a link to a FIFO',
          async (at: string) => {
            makeFifo(fifoMaker(), join(theirs, 'pipe'));
            await symlink(join(theirs, 'pipe'), at);
          },
        ],
      ] as const)),
  // Only root makes a device; /dev/zero's numbers: a read of it never ends.
  ...(posix && process.getuid?.() === 0
    ? ([['a device', async (at: string) => makeDevice(at)]] as const)
    : []),
];

/** A character device at `at` that reads as /dev/zero does (mknod c 1 5; root only). */
function makeDevice(at: string): void {
  const made = spawnSync('mknod', [at, 'c', '1', '5']);
  if (made.status !== 0) throw new Error(`mknod failed: ${String(made.stderr)}`);
}

/** The user's folder and what its settings file holds, as they were made. */
async function theirsUntouched(): Promise<void> {
  expect(await readFile(join(theirs, LINKED), 'utf8')).toBe(LINKED_TEXT);
  if (posix) expect((await stat(join(theirs, LINKED))).mode & 0o777).toBe(0o644);
}

describe.runIf(posix).each(NOT_OWN)('%s at settings.json', (_, plant) => {
  it('is set aside as itself by the app, which goes on in a private file of its own', async () => {
    const at = join(data, 'settings.json');
    await plant(at);
    const planted = await lstat(at);
    const settings = new SettingsService({
      store: new ElectronStoreKv({ cwd: data, name: 'settings' }),
      now: () => NOW,
    });
    expect(settings.get().theme).not.toBe('dark');
    expect(settings.takeProblems().map((problem) => problem.message)).toEqual([
      expect.stringContaining(join(data, `settings.${ASIDE}.json`)),
    ]);
    settings.update({ defaultCount: 3 });
    // Set aside as itself: the same link or FIFO, renamed.
    const aside = await lstat(join(data, `settings.${ASIDE}.json`));
    expect([aside.ino, aside.mode]).toEqual([planted.ino, planted.mode]);
    const own = await lstat(at);
    expect(own.isFile()).toBe(true);
    expect(own.mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(at, 'utf8'))).toMatchObject({ settings: { defaultCount: 3 } });
    await theirsUntouched();
  });

  it('is refused by a command, which changes nothing', async () => {
    const at = join(data, 'settings.json');
    await plant(at);
    const planted = await lstat(at);
    const edit = EditSettings.of({
      settingsStore: new JsonFileKv(data, 'settings'),
      now: () => NOW,
      logger: silentLogger,
    });
    expect(() => edit.now()).toThrow(/is damaged or cannot be read/);
    const store = new JsonFileKv(data, 'settings');
    expect(() => store.set('settings', DEFAULT_SETTINGS)).toThrow();
    expect((await lstat(at)).ino).toBe(planted.ino);
    if (planted.isSymbolicLink()) expect(await readlink(at)).toMatch(/^\//);
    await theirsUntouched();
  });
});

// Only root can give a file to another user; `nobody` plays the other local user.
describe.runIf(posix && process.getuid?.() === 0)('settings.json of another user', () => {
  it('is not read, by the app nor a command, and is left as it is', async () => {
    const at = join(data, 'settings.json');
    await writeFile(at, LINKED_TEXT, { mode: 0o644 });
    await chmod(at, 0o644);
    await chown(at, NOBODY, NOBODY);
    const settings = new SettingsService({
      store: new ElectronStoreKv({ cwd: data, name: 'settings' }),
      now: () => NOW,
    });
    expect(settings.get().theme).not.toBe('dark');
    expect(settings.takeProblems().map((problem) => problem.message)).toEqual([
      expect.stringContaining('another user owns it'),
    ]);
    const edit = EditSettings.of({
      settingsStore: new JsonFileKv(data, 'settings'),
      now: () => NOW,
      logger: silentLogger,
    });
    expect(() => edit.now()).toThrow(/is damaged or cannot be read/);
    expect(await readFile(at, 'utf8')).toBe(LINKED_TEXT);
    const info = await stat(at);
    expect([info.uid, info.mode & 0o777]).toEqual([NOBODY, 0o644]);
  });
});

describe.runIf(posix)('a key vault that is a link', () => {
  it('is not read nor written through: set aside as damaged, the key saved in a file of its own', async () => {
    // A vault record of the user's elsewhere, which the link points at.
    const elsewhere = new KeyVault({
      store: new JsonFileKv(theirs, 'vault'),
      cipher: new InMemoryCipher(),
      now: () => NOW,
    });
    await elsewhere.setKey('sk-elsewhere-0001', { allowWeakStorage: false, baseUrl: null });
    const before = await readFile(join(theirs, 'vault.json'), 'utf8');
    const at = join(data, 'key-vault-fal.json');
    await symlink(join(theirs, 'vault.json'), at);
    const vault = new KeyVault({
      store: new ElectronStoreKv({ cwd: data, name: 'key-vault-fal' }),
      cipher: new InMemoryCipher(),
      now: () => NOW,
    });
    expect(vault.status()).toMatchObject({
      fingerprint: null,
      message: expect.stringContaining(join(data, `key-vault-fal.${ASIDE}.json`)),
    });
    expect(await vault.readKey()).toBeNull();
    expect((await lstat(join(data, `key-vault-fal.${ASIDE}.json`))).isSymbolicLink()).toBe(true);
    await vault.setKey('sk-own-0002', { allowWeakStorage: false, baseUrl: null });
    expect((await lstat(at)).isFile()).toBe(true);
    expect(await readFile(join(theirs, 'vault.json'), 'utf8')).toBe(before);
    expect(await vault.readKey()).toBe('sk-own-0002');
  });
});
