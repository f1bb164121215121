/**
 * The composition root, run with `electron` replaced by recording fakes: it must start the runtime,
 * register every IPC channel behind the sender check, open the secure window on the app URL with the
 * bundled preload, serve both protocols, and forward engine events to the page. (The real binary
 * runs it in the end-to-end suite where one is present.) An integration test: the runtime it starts
 * serves the real embedded demo service over HTTP.
 */
import { EventEmitter } from 'node:events';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { REQUEST_CHANNEL_NAMES } from '../../../shared/ipc/channels';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolderSync } from '../../support/temp-folders';

const state = vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
  return {
    handlers: new Map<string, (event: unknown, input: unknown) => Promise<unknown>>(),
    dir: '',
    /** Start-up steps in order: command-line switches, then whenReady. */
    steps: [] as string[],
  };
});
state.dir = tempFolderSync('main');
// A stored key (as the fake safeStorage below encrypts it), so start-up really waits on its
// fingerprint (Web Crypto, off the main thread) after the runtime exists: the gap that matters.
const STORED_KEY = 'sk-main-smoke-0123456789';
mkdirSync(join(state.dir, 'userData'), { recursive: true });
// Where versions before one service model kept the user's own service's key.
const EARLIER_VAULT = JSON.stringify({
  apiKey: {
    version: 1,
    ciphertext: Buffer.from(`enc:${STORED_KEY}`).toString('base64'),
    backend: 'gnome_libsecret',
    weak: false,
    fingerprint: createHash('sha256').update(`pictor-key:${STORED_KEY}`).digest('hex').slice(0, 12),
    storedAt: 1,
    origin: null,
  },
});
writeFileSync(join(state.dir, 'userData', 'key-vault.json'), EARLIER_VAULT);

vi.mock('electron', async () => {
  const base = (await import('../../fakes/electron-window')).fakeElectron;
  const { FakeApp, FakeBrowserWindow, setDisplays, defaultSession } =
    await import('../../fakes/electron-window');
  setDisplays([{ x: 0, y: 0, width: 1920, height: 1080 }]);
  class App extends FakeApp {
    isPackaged = false;
    name = 'Pictor';
    getPath = (name: string) => join(state.dir, name);
    getAppPath = () => state.dir;
    getVersion = () => '0.1.0-test';
    whenReady = () => {
      state.steps.push('whenReady');
      return Promise.resolve();
    };
    commandLine = {
      hasSwitch: () => false,
      appendSwitch: (name: string, value?: string) => state.steps.push(`--${name}=${value}`),
    };
    setAppUserModelId = vi.fn();
    setPath = vi.fn();
    setAppLogsPath = vi.fn();
    setBadgeCount = vi.fn();
    quit = vi.fn();
    exit = vi.fn();
  }
  const { FakeWebContents } = await import('../../fakes/electron-window');
  Object.assign((FakeWebContents as unknown as { prototype: Record<string, unknown> }).prototype, {
    isDestroyed: () => false,
    send: vi.fn(),
    mainFrame: { url: 'pictor-app://app/index.html' },
  });
  const windows = FakeBrowserWindow as unknown as { prototype: Record<string, unknown> };
  Object.assign(windows.prototype, {
    setProgressBar: vi.fn(),
    isFocused: () => false,
    once(this: EventEmitter, event: string, listener: () => void) {
      return EventEmitter.prototype.once.call(this, event, listener);
    },
  });
  return {
    ...base,
    app: new App(),
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, input: unknown) => Promise<unknown>) =>
        state.handlers.set(channel, handler),
      removeHandler: (channel: string) => state.handlers.delete(channel),
    },
    net: {
      fetch: (url: string, init?: RequestInit) => fetch(url, init),
      request: vi.fn(),
      isOnline: () => true,
    },
    powerMonitor: new EventEmitter(),
    Notification: { isSupported: () => false },
    Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: vi.fn() },
    dialog: { showMessageBox: vi.fn(), showErrorBox: vi.fn(), showOpenDialog: vi.fn() },
    clipboard: { writeText: vi.fn() },
    safeStorage: {
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptStringAsync: async (text: string) => Buffer.from(`enc:${text}`),
      decryptStringAsync: async (buffer: Buffer) => ({
        result: buffer.toString().slice(4),
        shouldReEncrypt: false,
      }),
    },
    nativeImage: { createFromBuffer: vi.fn(), createFromPath: vi.fn() },
    // Start-up passes `session` to the fetch adapter (mocked below); updates use a partition.
    session: { defaultSession: defaultSession(), fromPartition: () => defaultSession() },
  };
});

// net.fetch/net.request have their own adapter tests (tests/unit/adapters/electron-net-fetch.test.ts);
// here the network goes through Node's fetch to the real embedded demo service.
vi.mock('../../../electron/adapters/electron-net-fetch', () => ({
  createElectronFetch: () => (url: string, init?: RequestInit) => fetch(url, init),
}));

const electron = await import('electron');
const { FakeBrowserWindow } = await import('../../fakes/electron-window');
/** How many protocols were registered when each window was made. */
const protocolsAtWindow: number[] = [];
const push = FakeBrowserWindow.instances.push.bind(FakeBrowserWindow.instances);
FakeBrowserWindow.instances.push = (...windows) => {
  protocolsAtWindow.push(vi.mocked(electron.protocol.handle).mock.calls.length);
  return push(...windows);
};
// On Linux, a desktop Electron does not recognise, with a Secret Service on the session bus (a
// dbus-send on PATH that says so): start-up must ask for it before ready.
const fakeBin = join(state.dir, 'bin');
mkdirSync(fakeBin);
writeFileSync(join(fakeBin, 'dbus-send'), "#!/bin/sh\nprintf '   boolean true\\n'\n", {
  mode: 0o755,
});
vi.stubEnv('XDG_CURRENT_DESKTOP', 'sway');
// The embedded demo's tasks at a test's pace (app-environment.ts, as the end-to-end suite sets
// it): its own 3 to 8 s a task and the 3 s poll were the generate test's 9.5 s of waiting.
vi.stubEnv('PICTOR_DEMO_DURATION_MS', '200');
vi.stubEnv('PICTOR_POLL_INTERVAL_MS', '200');
vi.stubEnv('PATH', `${fakeBin}${delimiter}${process.env.PATH ?? ''}`);
await import('../../../electron/main');
vi.unstubAllEnvs();
// A second launch and macOS `activate` on every turn of the event loop while the app starts: a
// window opened in the gap would load before pictor-app:// is handled.
// The knocking stops at UNTIL's deadline: a start-up that fails (or never opens a window) ends
// this file with the reason instead of spinning the event loop for ever.
const readLog = (): string => {
  const file = join(state.dir, 'logs', 'pictor.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '(no log)';
};
let knocks = 0;
const knockingEnds = Date.now() + UNTIL.timeout;
await new Promise<void>((resolve, reject) => {
  const knock = () => {
    if (FakeBrowserWindow.instances.length > 0) return resolve();
    if (Date.now() > knockingEnds) {
      const log = readLog();
      return reject(
        new Error(`start-up opened no window within ${UNTIL.timeout} ms; log:\n${log}`),
      );
    }
    knocks += 1;
    electron.app.emit('activate');
    electron.app.emit('second-instance');
    setImmediate(knock);
  };
  knock();
});

async function until<T>(probe: () => T | undefined, ms = UNTIL.timeout): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterAll(async () => {
  const ends = () =>
    vi.mocked(electron.app.quit).mock.calls.length + vi.mocked(electron.app.exit).mock.calls.length;
  const before = ends();
  electron.app.emit('will-quit', { preventDefault: () => undefined });
  // The quit's steps end with quit() (exit() past their limit): the runtime, the wiring and the
  // log closed, nothing of main writes in its folder any more, and it goes (it was left behind).
  await until(() => (ends() > before ? true : undefined));
  await removeFolder(state.dir);
});

describe('electron/main.ts', () => {
  it('opens its window only once the protocols are registered, however often it is asked earlier', () => {
    expect(knocks).toBeGreaterThan(0);
    expect(protocolsAtWindow).toEqual([2]);
    expect(FakeBrowserWindow.instances).toHaveLength(1);
  });

  it('selects the Secret Service on an unrecognised Linux desktop before the app is ready', () => {
    expect(state.steps).toEqual(
      process.platform === 'linux'
        ? ['--password-store=gnome-libsecret', 'whenReady']
        : ['whenReady'],
    );
  });

  it('opens one secure window on the app URL with the bundled preload', async () => {
    const window = await until(() => FakeBrowserWindow.instances[0]);
    const prefs = window.options['webPreferences'] as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(String(prefs['preload'])).toMatch(/preload\.cjs$/);
    expect(window.loaded).toEqual(['pictor-app://app/index.html']);
  });

  it('moves the earlier vault file’s key, still encrypted, into its service’s own file', () => {
    const file = (name: string) => join(state.dir, 'userData', name);
    const recordIn = (text: string) => (JSON.parse(text) as { apiKey?: object }).apiKey;
    const moved = readFileSync(file('key-vault-pictor.json'), 'utf8');
    const { ciphertext, fingerprint } = recordIn(EARLIER_VAULT) as Record<string, string>;
    // The same ciphertext (the record's binding may be brought up to date by the vault).
    expect(recordIn(moved)).toMatchObject({ ciphertext, fingerprint });
    expect(moved).not.toContain(STORED_KEY);
    expect(recordIn(readFileSync(file('key-vault.json'), 'utf8'))).toBeUndefined();
  });

  it('registers every contract channel and serves both protocols', async () => {
    await until(() => (state.handlers.size === REQUEST_CHANNEL_NAMES.length ? true : undefined));
    expect([...state.handlers.keys()].sort()).toEqual([...REQUEST_CHANNEL_NAMES].sort());
    const schemes = vi.mocked(electron.protocol.handle).mock.calls.map(([scheme]) => scheme);
    expect(schemes.sort()).toEqual(['pictor-app', 'pictor-gallery']);
  });

  it('answers the window’s main frame, refuses any other sender', async () => {
    const window = await until(() => FakeBrowserWindow.instances[0]);
    const contents = window.webContents as unknown as { mainFrame: unknown };
    const getInfo = state.handlers.get('app:getInfo')!;
    expect(
      await getInfo({ sender: window.webContents, senderFrame: contents.mainFrame }, undefined),
    ).toMatchObject({
      ok: true,
      value: { demo: true, version: '0.1.0-test' },
    });
    expect(await getInfo({ sender: {}, senderFrame: {} }, undefined)).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('reloads a window whose renderer crashed and tells the page once', async () => {
    const window = await until(() => FakeBrowserWindow.instances[0]);
    const contents = window.webContents as unknown as EventEmitter & {
      mainFrame: unknown;
      reload: () => void;
    };
    let reloads = 0;
    contents.reload = () => void (reloads += 1);
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 11 });
    expect(reloads).toBe(1);
    const getInfo = state.handlers.get('app:getInfo')!;
    const event = { sender: window.webContents, senderFrame: contents.mainFrame };
    expect(await getInfo(event, undefined)).toMatchObject({
      ok: true,
      value: { notices: ['window_recovered'] },
    });
    expect(await getInfo(event, undefined)).toMatchObject({ ok: true, value: { notices: [] } });
  });

  it('generates on the embedded demo service and forwards task events to the page', async () => {
    const window = await until(() => FakeBrowserWindow.instances[0]);
    const contents = window.webContents as unknown as {
      mainFrame: unknown;
      send: (...args: unknown[]) => void;
      isDestroyed: () => boolean;
    };
    const sent: [string, { change: string; record?: { status: string } }[]][] = [];
    contents.send = (channel, payload) => sent.push([channel as string, payload as never]);
    contents.isDestroyed = () => false;
    const submit = state.handlers.get('tasks:submit')!;
    const result = await submit(
      { sender: window.webContents, senderFrame: contents.mainFrame },
      {
        request: { prompt: 'smoke', size: '64x64' },
        target: { provider: 'pictor', endpoint: 'demo:' },
        count: 1,
      },
    );
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    await until(() =>
      sent.find(
        ([channel, changes]) =>
          channel === 'tasks:updated' &&
          changes.some((change) => change.record?.status === 'completed'),
      ),
    );
    expect(sent.map(([channel]) => channel)).toContain('tasks:updated');
  }, 30_000);

  it('opens the folder chooser at the current gallery folder, not Downloads', async () => {
    const window = await until(() => FakeBrowserWindow.instances[0]);
    const contents = window.webContents as unknown as { mainFrame: unknown };
    const event = { sender: window.webContents, senderFrame: contents.mainFrame };
    const pick = state.handlers.get('library:pick')!;
    const move = state.handlers.get('library:move')!;
    const showOpenDialog = vi.mocked(electron.dialog.showOpenDialog);
    const chosen = join(state.dir, 'chosen-library');
    mkdirSync(chosen);
    showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [chosen] });
    showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });

    const picked = (await pick(event, undefined)) as { value: { choice: { ticket: string } } };
    expect(picked).toMatchObject({
      ok: true,
      value: { choice: { path: chosen, library: { tasks: 0 } } },
    });
    // Once moved there, the next dialog opens at the new folder.
    expect(await move(event, { ticket: picked.value.choice.ticket })).toMatchObject({
      ok: true,
      value: { outcome: 'moved', path: chosen },
    });
    expect(await pick(event, undefined)).toMatchObject({ ok: true, value: { choice: null } });
    const asked = showOpenDialog.mock.calls.map((call) => call.at(-1) as { defaultPath?: string });
    expect(asked.map((options) => options.defaultPath)).toEqual([
      join(state.dir, 'pictures', 'Pictor'),
      chosen,
    ]);
    // A sheet on the window, so it cannot end up behind it.
    expect(showOpenDialog.mock.calls.map((call) => call[0])).toEqual([window, window]);
  }, 30_000);
});
