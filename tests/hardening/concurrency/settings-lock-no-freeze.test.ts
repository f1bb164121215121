/**
 * The app's main process and a `pictor` command share settings.json's lock (adapters/store-lock.ts).
 * A command stopped in the middle of a write (Ctrl+Z: SIGSTOP) holds it until it is resumed: the
 * app's saves meanwhile (a change in Settings, the window's bounds as it is moved, the gallery
 * folder) must wait for it without freezing the window, i.e. without blocking main's event loop,
 * and still lose nothing. And a command's change made while the app runs must reach the app
 * (Settings shows what the file holds) without waiting for the app's own next change.
 *
 * The lock is held by a real second process (settings-writer-worker.ts `hold`), and main's event
 * loop is measured by a ticker: the longest gap between two of its ticks while the app's saves
 * wait.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { withStoreLockAsync } from '../../../electron/adapters/store-lock';
import { StoreBusyError } from '../../../electron/ports/key-value-store';
import { SettingsError } from '../../../electron/core/settings/settings-patch';
import { EditSettings } from '../../../electron/core/settings/edit-settings';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import type { Settings } from '../../../shared/domain/settings';
import { silentLogger } from '../../../electron/ports/logger';
import { holdSettings, loopWatch } from './settings-holder';
import { startTestRuntime } from '../../support/app-runtime';
import { removeFolder, tempFolder } from '../../support/temp-folders';

// electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const NOW = Date.UTC(2026, 11, 1);
/** Ticks main's loop must make while the saves wait, to show it runs on. */
const TICKS_WHILE_HELD = 25;
/**
 * The longest gap allowed between two ticks (every 5 ms when free): far under the 5 s a blocked
 * loop shows, far over what a busy machine adds.
 */
const MOST_GAP_MS = 1_000;

const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.pid !== undefined && process.platform !== 'win32') child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  if (dir) await removeFolder(dir);
});

/** The app's settings, as the desktop app opens them. */
const app = (dataDir: string) =>
  new SettingsService({
    store: new ElectronStoreKv({ cwd: dataDir, name: 'settings' }),
    now: () => NOW,
  });

const fileOf = async (dataDir: string) =>
  JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')) as {
    settings: Record<string, unknown>;
    windowBounds?: unknown;
  };

const holder = (dataDir: string) => holdSettings(dataDir, children);

describe.skipIf(process.platform === 'win32')(
  'an app save while a stopped command holds the lock',
  () => {
    it('keeps main’s event loop running, and saves once the command lets go', async () => {
      dir = await tempFolder('settings-lock');
      const running = app(dir);
      running.update({ defaultCount: 2 });
      const held = await holder(dir);
      const loop = loopWatch();
      const saved = running.updateSoon({ theme: 'dark' });
      const bounds = { x: 10, y: 20, width: 900, height: 700 };
      expect(running.setWindowBounds(bounds)).toBe(true);
      const gallery = running.setGalleryDir(join(dir, 'Gallery'));
      let settled = false;
      void Promise.allSettled([saved, gallery]).then(() => (settled = true));
      await loop.ticked(TICKS_WHILE_HELD);
      expect(settled).toBe(false);
      await held.release();
      const [after] = await Promise.all([saved, gallery, running.boundsSaved()]);
      const longest = loop.stop();
      expect(longest).toBeLessThan(MOST_GAP_MS);
      expect(after.theme).toBe('dark');
      const file = await fileOf(dir);
      expect(file.settings).toMatchObject({
        theme: 'dark',
        defaultCount: 2,
        galleryDir: join(dir, 'Gallery'),
      });
      expect(file.windowBounds).toEqual(bounds);
    });

    it('keeps main’s event loop running through the app’s start, which reads without waiting', async () => {
      dir = await tempFolder('settings-lock');
      app(dir).update({ theme: 'dark' });
      const held = await holder(dir);
      const loop = loopWatch();
      // The start does not wait for the lock (faults/settings-start-locked.test.ts says more).
      const service = await SettingsService.open({
        store: new ElectronStoreKv({ cwd: dir, name: 'settings' }),
        now: () => NOW,
      });
      expect(service.get().theme).toBe('dark');
      await loop.ticked(TICKS_WHILE_HELD);
      await held.release();
      await service.whenHeldRead();
      expect(loop.stop()).toBeLessThan(MOST_GAP_MS);
      expect(service.get().theme).toBe('dark');
    });

    it('gives up past its wait with a sentence naming the cause, the file as it was', async () => {
      dir = await tempFolder('settings-lock');
      const file = join(dir, 'settings.json');
      app(dir).update({ theme: 'dark' });
      // The wait made short here (the app's is 5 s): the same refusal, sooner.
      const shortWait = <T>(work: () => T) => withStoreLockAsync(file, work, 50);
      const store = new ElectronStoreKv({ cwd: dir, name: 'settings' });
      const busy = new SettingsService({
        store: Object.assign(store, { exclusivelySoon: shortWait }),
        now: () => NOW,
      });
      const held = await holder(dir);
      await expect(shortWait(() => 'ran')).rejects.toBeInstanceOf(StoreBusyError);
      const refused = await busy.updateSoon({ theme: 'light' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SettingsError);
      expect((refused as SettingsError).message).toMatch(/another Pictor command is changing/);
      expect(busy.get().theme).toBe('dark');
      await held.release();
      expect((await fileOf(dir)).settings.theme).toBe('dark');
    });

    it('keeps a change another process made while the save waited (no lost update)', async () => {
      dir = await tempFolder('settings-lock');
      const running = app(dir);
      running.update({ defaultCount: 2 });
      const held = await holder(dir);
      const saved = running.updateSoon({ theme: 'light' });
      // A command that was queued behind the stopped one writes first once it lets go.
      await held.release();
      EditSettings.of({
        settingsStore: new JsonFileKv(dir, 'settings'),
        now: () => NOW,
        logger: silentLogger,
      }).consent('fal');
      await saved;
      expect((await fileOf(dir)).settings).toMatchObject({
        theme: 'light',
        defaultCount: 2,
        publicUploadConsent: ['fal'],
      });
    });
  },
);

describe("a command's change while the app runs", () => {
  it('reaches the app (and its page) without a change of its own', async () => {
    dir = await tempFolder('settings-lock');
    const running = app(dir);
    running.update({ theme: 'dark' });
    const heard: Settings[] = [];
    const following = running.follow();
    const consented = new Promise<void>((resolve) =>
      running.onDidChange((settings) => {
        heard.push(settings);
        if (settings.publicUploadConsent.includes('fal')) resolve();
      }),
    );
    EditSettings.of({
      settingsStore: new JsonFileKv(dir, 'settings'),
      now: () => NOW,
      logger: silentLogger,
    }).consent('fal');
    await consented;
    following.dispose();
    expect(running.get()).toMatchObject({ theme: 'dark', publicUploadConsent: ['fal'] });
    // Told once per difference, not once per event the system sent.
    expect(heard.filter((s) => s.publicUploadConsent.includes('fal'))).toHaveLength(1);
  });

  it('reaches the running app, whose gallery stays where its library is', async () => {
    dir = await tempFolder('settings-lock');
    const dataDir = join(dir, 'data');
    const runtime = await startTestRuntime(dir, {
      settingsStore: new ElectronStoreKv({ cwd: dataDir, name: 'settings' }),
    });
    try {
      const gallery = runtime.galleryDir();
      const heard = new Promise<void>((resolve) =>
        runtime.settings.onDidChange((settings) => {
          if (settings.neverUploadInputs) resolve();
        }),
      );
      // A hand edit (or another writer) naming another gallery folder, with a command's change.
      const kv = new JsonFileKv(dataDir, 'settings');
      kv.exclusively(() => {
        const stored = kv.get('settings') as Record<string, unknown> | undefined;
        kv.set('settings', { ...stored, neverUploadInputs: true, galleryDir: join(dir!, 'x') });
      });
      await heard;
      expect(runtime.settings.get().neverUploadInputs).toBe(true);
      expect(runtime.galleryDir()).toBe(gallery);
    } finally {
      await runtime.close();
    }
  });
});
