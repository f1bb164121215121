/**
 * The app and `pictor` commands write one settings.json (the app through electron-store, a
 * command through its JSON file store), each having read it at its own time. A change one makes
 * while the other runs must survive the other's next change: each writes only what it changed, on
 * the file as it is then, holding the file's lock across processes (adapters/store-lock.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { EditSettings } from '../../../electron/core/settings/edit-settings';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { silentLogger } from '../../../electron/ports/logger';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { StoreBusyError } from '../../../electron/ports/key-value-store';
import { COUNTER } from './settings-writer-worker';
import { holdSettings } from './settings-holder';
import { removeFolder, tempFolder } from '../../support/temp-folders';

// electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const NOW = Date.UTC(2026, 11, 1);
const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dir) await removeFolder(dir);
});

/** The app's settings, as the desktop app opens them. */
const app = (dataDir: string) =>
  new SettingsService({
    store: new ElectronStoreKv({ cwd: dataDir, name: 'settings' }),
    now: () => NOW,
  });

/** A command's settings, as `pictor edit` opens them (EditSettings over its JSON file store). */
const command = (dataDir: string) =>
  EditSettings.of({
    settingsStore: new JsonFileKv(dataDir, 'settings'),
    now: () => NOW,
    logger: silentLogger,
  });

const fileSettings = async (dataDir: string): Promise<Record<string, unknown>> =>
  (
    JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')) as {
      settings: Record<string, unknown>;
    }
  ).settings;

describe('the app and a command changing the settings at once', () => {
  it("keeps a command's consent through the app's next change of another setting", async () => {
    dir = await tempFolder('settings-writers');
    const running = app(dir);
    running.update({ theme: 'dark' });
    command(dir).consent('fal');
    const after = running.update({ defaultCount: 3 });
    expect(after).toMatchObject({ theme: 'dark', defaultCount: 3, publicUploadConsent: ['fal'] });
    expect(await fileSettings(dir)).toMatchObject({
      theme: 'dark',
      defaultCount: 3,
      publicUploadConsent: ['fal'],
    });
  });

  it("keeps the app's change through a command that read the file before it", async () => {
    dir = await tempFolder('settings-writers');
    const cli = command(dir);
    expect(cli.now()).toEqual({ neverUploadInputs: false, publicUploadConsent: [] });
    app(dir).update({ neverUploadInputs: true, theme: 'light' });
    cli.consent('fal');
    expect(await fileSettings(dir)).toMatchObject({
      neverUploadInputs: true,
      theme: 'light',
      publicUploadConsent: ['fal'],
    });
  });

  it("applies the page's list of consents as what it added and took out", async () => {
    dir = await tempFolder('settings-writers');
    const running = app(dir);
    running.update({ publicUploadConsent: ['replicate'] });
    command(dir).consent('fal');
    // The page saw ['replicate'] and takes it out: the command's 'fal' stays.
    expect(running.update({ publicUploadConsent: [] }).publicUploadConsent).toEqual(['fal']);
    // The page saw ['fal'] by now and adds 'replicate' again.
    expect(
      running.update({ publicUploadConsent: ['fal', 'replicate'] }).publicUploadConsent,
    ).toEqual(['fal', 'replicate']);
    expect((await fileSettings(dir)).publicUploadConsent).toEqual(['fal', 'replicate']);
  });

  it("tells the app's listeners of the command's change with its own", async () => {
    dir = await tempFolder('settings-writers');
    const running = app(dir);
    const heard: unknown[][] = [];
    running.onDidChange((settings) => heard.push([...settings.publicUploadConsent]));
    command(dir).consent('fal');
    running.update({ theme: 'dark' });
    expect(heard).toEqual([['fal']]);
  });

  it("follows the app's change at each send of a command that runs long (pictor mcp)", async () => {
    dir = await tempFolder('settings-writers');
    const server = command(dir);
    expect(server.now().neverUploadInputs).toBe(false);
    const running = app(dir);
    running.update({ neverUploadInputs: true });
    expect(server.now().neverUploadInputs).toBe(true);
    // Damaged meanwhile: refused; repaired by the app's next start: used again.
    await writeFile(join(dir, 'settings.json'), '{"settings": {"neverUpl');
    expect(() => server.now()).toThrow(/settings/i);
    // A file it could not read starts the app on the cautious values (never upload inputs).
    expect(app(dir).get().neverUploadInputs).toBe(true);
    running.update({ neverUploadInputs: false });
    expect(server.now().neverUploadInputs).toBe(false);
  });

  it('keeps what a newer Pictor wrote that this one does not know', async () => {
    dir = await tempFolder('settings-writers');
    const newer = { theme: 'dark', futureSetting: { on: true } };
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ settings: newer }), {
      mode: 0o600,
    });
    app(dir).update({ defaultCount: 2 });
    command(dir).consent('fal');
    expect(await fileSettings(dir)).toEqual({
      ...newer,
      defaultCount: 2,
      publicUploadConsent: ['fal'],
    });
  });
});

/**
 * How long each counting change may wait for the lock: 5 s in the app and every command
 * (store-lock.ts), which four writers taking it back to back overran when the machine was slowed
 * 4–8×, one change giving up with StoreBusyError. Whether a change is lost does not depend on the
 * wait's length; giving up after the wait is tested below (a short one, the same refusal).
 */
const COUNTING_WAIT_MS = 120_000;
/** The wait of a store not told one: store-lock.ts's (not exported: no product code needs it). */
const STORE_WAIT_NOT_GIVEN_MS = 5_000;

/** Starts a worker counting `n` changes; resolves when it printed `done`. */
function counter(dataDir: string, n: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [...nodeEntryArgs('settings-writer-worker'), 'count', dataDir, `${n}`, `${COUNTING_WAIT_MS}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && out.includes('done')) resolve();
      else reject(new Error(`the worker ended with ${code}: ${errors}`));
    });
  });
}

describe('writers in several processes at once', () => {
  it('lose no change: every read-and-write of each is one change of the file', async () => {
    dir = await tempFolder('settings-writers');
    const workers = 3;
    const each = 150;
    const done = Promise.all(Array.from({ length: workers }, () => counter(dir!, each)));
    // This process writes too, as the app does (electron-store), while they run.
    const kv = new ElectronStoreKv({ cwd: dir, name: 'settings', lockWaitMs: COUNTING_WAIT_MS });
    for (let i = 0; i < each; i += 1) {
      kv.exclusively(() => {
        const now = kv.get(COUNTER);
        kv.set(COUNTER, (typeof now === 'number' ? now : 0) + 1);
      });
    }
    await done;
    expect(kv.get(COUNTER)).toBe((workers + 1) * each);
  });

  it.skipIf(process.platform === 'win32')(
    "gives up after the store's wait while another process holds the file, changing nothing",
    async () => {
      dir = await tempFolder('settings-writers');
      app(dir).update({ theme: 'dark' });
      const before = await readFile(join(dir, 'settings.json'), 'utf8');
      const held = await holdSettings(dir, children);
      const waitMs = 50;
      const stores = [
        new JsonFileKv(dir, 'settings', waitMs),
        new ElectronStoreKv({ cwd: dir, name: 'settings', lockWaitMs: waitMs }),
      ];
      for (const store of stores) {
        const started = performance.now();
        expect(() => store.set(COUNTER, 1)).toThrow(StoreBusyError);
        const waited = performance.now() - started;
        // It waited, and for its own wait: far under the 5 s every store waits when not told.
        expect(waited).toBeGreaterThanOrEqual(waitMs);
        expect(waited).toBeLessThan(STORE_WAIT_NOT_GIVEN_MS);
        await expect(store.exclusivelySoon(() => 'ran')).rejects.toBeInstanceOf(StoreBusyError);
      }
      await held.release();
      expect(await readFile(join(dir, 'settings.json'), 'utf8')).toBe(before);
    },
  );
});

describe("the file's lock when its file is not one Pictor made", () => {
  it('takes text written over it as no lock, and goes on', async () => {
    dir = await tempFolder('settings-writers');
    await writeFile(join(dir, 'settings.json.lock'), 'not a database, someone wrote here');
    expect(app(dir).update({ theme: 'dark' }).theme).toBe('dark');
    expect(await readFile(join(dir, 'settings.json.lock'), 'utf8')).toBe('');
  });

  it.each([
    ['a folder', (path: string) => mkdir(path)],
    ['a link', (path: string) => symlink('/etc/hostname', path)],
    ...(process.platform === 'win32'
      ? []
      : [['a FIFO', (path: string) => execFileSync('mkfifo', [path])] as const]),
  ] as const)('is %s: a change is not saved, with a sentence; a start reads', async (_, make) => {
    dir = await tempFolder('settings-writers');
    app(dir).update({ theme: 'dark' });
    await rm(join(dir, 'settings.json.lock'));
    await make(join(dir, 'settings.json.lock'));
    const running = app(dir);
    expect(running.get().theme).toBe('dark');
    expect(() => running.update({ theme: 'light' })).toThrow(/could not be saved/);
    expect((await fileSettings(dir)).theme).toBe('dark');
    expect(command(dir).now()).toEqual({ neverUploadInputs: false, publicUploadConsent: [] });
  });
});
