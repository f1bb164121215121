/**
 * The app starts while a `pictor` command holds settings.json's lock (stopped mid-write with
 * Ctrl+Z, for as long as the user leaves it): the start never waits for it, so the window comes at
 * once with the settings the file holds. Before, the start waited 5 s for the lock (no window
 * meanwhile), then read the file through the constructor, which waited 5 s more BLOCKING the
 * thread. A repair the file needs (a damaged file, a bad value) and the removal of a killed
 * write's leftovers need the lock: nothing is written while another process holds it, and all of
 * it is done, with its problems handed out, once it is let go (SettingsService.whenHeldRead).
 *
 * A real second process holds the lock (concurrency/settings-holder.ts), the app's own store
 * (electron-store) reads a real file; main's event loop is watched by a ticker.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { DEFAULT_SETTINGS, UNREAD_SETTINGS } from '../../../shared/domain/settings';
import { holdSettings, loopWatch } from '../concurrency/settings-holder';
import { removeFolder, tempFolder } from '../../support/temp-folders';

// electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const NOW = Date.UTC(2026, 11, 1);
/**
 * The longest the start may take while the lock is held, and the longest gap between two ticks of
 * main's loop: far under the 5 s the start waited (and the 5 s it blocked), far over what a busy
 * machine adds.
 */
const MOST_MS = 1_000;

const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (process.platform !== 'win32') child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  if (dir) await removeFolder(dir);
  dir = undefined;
});

const open = (dataDir: string) =>
  SettingsService.open({
    store: new ElectronStoreKv({ cwd: dataDir, name: 'settings' }),
    now: () => NOW,
  });

/** A data folder whose settings.json holds `text`, its lock held by a stopped command. */
async function lockedWith(text: string) {
  dir = await tempFolder('settings-start');
  const file = join(dir, 'settings.json');
  await writeFile(file, text, { mode: 0o600 });
  const held = await holdSettings(dir, children);
  const loop = loopWatch();
  const startedAt = performance.now();
  const service = await open(dir);
  const tookMs = performance.now() - startedAt;
  return { file, held, loop, service, tookMs };
}

const asideFiles = async (dataDir: string) =>
  (await readdir(dataDir)).filter((name) => /^settings\..+\.json$/.test(name));

describe.skipIf(process.platform === 'win32')(
  'the app’s start while a command holds the lock',
  () => {
    it('reads the settings at once, the loop never blocked, and reads again holding it later', async () => {
      const text = JSON.stringify({
        settings: { theme: 'dark', defaultCount: 3 },
        windowBounds: { x: 10, y: 20, width: 900, height: 700 },
      });
      const { held, loop, service, tookMs } = await lockedWith(text);
      expect(tookMs).toBeLessThan(MOST_MS);
      expect(service.get()).toMatchObject({ theme: 'dark', defaultCount: 3 });
      expect(service.getWindowBounds()).toEqual({ x: 10, y: 20, width: 900, height: 700 });
      expect(service.takeProblems()).toEqual([]);
      let heldRead = false;
      void service.whenHeldRead().then(() => (heldRead = true));
      await loop.ticked(20);
      expect(heldRead).toBe(false);
      await held.release();
      await service.whenHeldRead();
      expect(loop.stop()).toBeLessThan(MOST_MS);
      expect(service.get()).toMatchObject({ theme: 'dark', defaultCount: 3 });
    });

    it('repairs a bad value only once the lock is let go, and says so then', async () => {
      const text = JSON.stringify({ settings: { theme: 'dark', defaultCount: 'many' } });
      const { file, held, loop, service, tookMs } = await lockedWith(text);
      expect(tookMs).toBeLessThan(MOST_MS);
      // The good values and the default for the bad one, at once; nothing written yet.
      expect(service.get()).toMatchObject({
        theme: 'dark',
        defaultCount: DEFAULT_SETTINGS.defaultCount,
      });
      expect(service.takeProblems()).toEqual([]);
      await loop.ticked(20);
      expect(await readFile(file, 'utf8')).toBe(text);
      expect(await asideFiles(dir!)).toEqual([]);
      await held.release();
      await service.whenHeldRead();
      expect(loop.stop()).toBeLessThan(MOST_MS);
      const repaired = JSON.parse(await readFile(file, 'utf8')) as { settings: object };
      expect(repaired.settings).toMatchObject({
        theme: 'dark',
        defaultCount: DEFAULT_SETTINGS.defaultCount,
      });
      expect(await asideFiles(dir!)).toHaveLength(1);
      expect(service.takeProblems()).toHaveLength(1);
    });

    it('keeps a damaged file where it is until the lock is let go, then aside with a problem', async () => {
      const text = '{"settings": {"theme": "dark"';
      const { file, held, loop, service, tookMs } = await lockedWith(text);
      expect(tookMs).toBeLessThan(MOST_MS);
      expect(service.get()).toEqual(UNREAD_SETTINGS);
      expect(service.takeProblems()).toEqual([]);
      await loop.ticked(20);
      expect(await readFile(file, 'utf8')).toBe(text);
      await held.release();
      await service.whenHeldRead();
      expect(loop.stop()).toBeLessThan(MOST_MS);
      const aside = await asideFiles(dir!);
      expect(aside).toHaveLength(1);
      expect(await readFile(join(dir!, aside[0]!), 'utf8')).toBe(text);
      expect(service.takeProblems()).toHaveLength(1);
      expect(service.get()).toEqual(UNREAD_SETTINGS);
    });
  },
);
