/**
 * The settings file's repair on a full disk, on a real small disk (a tmpfs filled to its last
 * byte; Linux as root, else skipped with the reason), through both stores the app and the CLI keep
 * it in (electron-store's, and the CLI's JSON file). A file with one value Pictor cannot use is
 * repaired at start: the bad value reset, the good ones (the gallery folder, "never upload
 * inputs") kept. When the repaired file cannot be written, the file must stay where it was, so
 * the next start finds the user's settings again, not an empty folder read as the defaults with
 * nothing said (the gallery folder, services and privacy settings silently gone). Once there is
 * room again the repair is written and a copy of the old file is kept beside it.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import type { KeyValueStore } from '../../../electron/ports/key-value-store';
import { fillDisk, mountTmpfs, probeMount, unmount, waitFor } from '../crashes/disk-fixture';
import { removeFolder, tempFolder } from '../../support/temp-folders';

// electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const mount = probeMount();
if (!mount.ok) console.warn(`settings-disk-full: SKIPPED (${mount.reason}).`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const GALLERY = '/home/someone/Pictures/Pictor library';
const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
/** The gallery folder and "never upload inputs" set, and a theme no version writes (a number). */
const ORIGINAL = JSON.stringify(
  { settings: { galleryDir: GALLERY, neverUploadInputs: true, theme: 7 } },
  null,
  2,
);

/** A data folder on its own small disk, holding a settings file with one bad value. */
async function fullDiskWithSettings(): Promise<string> {
  const dir = await tempFolder('settings-full');
  cleanups.push(() => removeFolder(dir));
  mountTmpfs(dir, 64 * 1024);
  cleanups.push(() => unmount(dir));
  writeFileSync(join(dir, 'settings.json'), ORIGINAL, { mode: 0o600 });
  fillDisk(dir);
  return dir;
}

const STORES: readonly (readonly [string, (dir: string) => KeyValueStore])[] = [
  ['electron-store (the app)', (dir) => new ElectronStoreKv({ cwd: dir, name: 'settings' })],
  ['its JSON file (the CLI)', (dir) => new JsonFileKv(dir, 'settings')],
];

describe.skipIf(!mount.ok)('a settings repair on a full disk', () => {
  it.each(STORES)('loses nothing through %s: the next start reads them again', async (_, open) => {
    const dir = await fullDiskWithSettings();

    const first = new SettingsService({ store: open(dir), now: () => NOW });
    expect(first.get()).toMatchObject({ galleryDir: GALLERY, neverUploadInputs: true });
    expect(first.takeProblems()).not.toEqual([]);

    // The next start, the disk still full, then with room again.
    const second = new SettingsService({ store: open(dir), now: () => NOW + 1 });
    expect(second.get()).toMatchObject({ galleryDir: GALLERY, neverUploadInputs: true });
    expect(second.takeProblems()).not.toEqual([]);
    expect(readdirSync(dir)).toContain('settings.json');
    // No half-written temporary file is left to fill the disk further (electron-store's writer
    // removes its own a moment after the failed write, in the background). The file's lock
    // (adapters/store-lock.ts) is an empty file that stays.
    const others = () =>
      readdirSync(dir).filter(
        (name) =>
          !/^settings(\.corrupt-[^/]+)?\.json(\.lock)?$/.test(name) && name !== 'filler.bin',
      );
    await waitFor('no temporary file left', () => others().length === 0, 5_000).catch(() =>
      expect(others()).toEqual([]),
    );

    // Room again: the repair is written, and the start after reads it with nothing to say.
    rmSync(join(dir, 'filler.bin'));
    const third = new SettingsService({ store: open(dir), now: () => NOW + 2 });
    expect(third.get()).toMatchObject({ galleryDir: GALLERY, neverUploadInputs: true });
    expect(third.takeProblems()).not.toEqual([]);
    const fourth = new SettingsService({ store: open(dir), now: () => NOW + 3 });
    expect(fourth.get()).toMatchObject({ galleryDir: GALLERY, neverUploadInputs: true });
    expect(fourth.takeProblems()).toEqual([]);
    // The old file, bad value and all, is kept beside it.
    const copies = readdirSync(dir).filter((name) => name.startsWith('settings.corrupt-'));
    expect(copies.map((name) => readFileSync(join(dir, name), 'utf8'))).toContain(ORIGINAL);
  });
});
