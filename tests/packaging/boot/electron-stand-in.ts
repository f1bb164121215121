/**
 * The `electron` module for the packaged-app boot test (packaged-boot.test.ts): just enough of
 * Electron's main-process API, recording what the app does with it, for the packed main bundle to
 * start in plain Node. A resolve hook (resolve-electron.mjs) maps `electron` here.
 *
 * The test drives it over the child process's IPC channel:
 * - it reports `{ type: 'protocol', scheme }`, `{ type: 'window', url, preload, channels }` (when
 *   the window loads, with the channels that have a handler then), `{ type: 'channels', names }` (when IPC handlers are registered) and every
 *   `webContents.send` as `{ type: 'event', channel, payload }`;
 * - it answers `{ type: 'invoke', id, channel, input }` with `{ type: 'result', id, value }`, the
 *   handler called as the window's main frame would call it;
 * - `{ type: 'quit' }` runs Electron's quit sequence (before-quit, will-quit, quit, exit 0).
 * Anything else the app touches and this file does not model is a no-op, reported as
 * `{ type: 'unmodelled', name }` so the test can show it.
 */
import { EventEmitter } from 'node:events';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';

const BOOT_DIR = process.env['PICTOR_BOOT_DIR'] ?? '/nonexistent';
// Started as `node main.js <args>`: the arguments sit where `electron . <args>` puts them, which
// Electron marks with process.defaultApp (electron/cli/cli-invocation.ts reads it).
(process as { defaultApp?: boolean }).defaultApp = true;
// Where a packaged app's resources sit (app.asar, drag-icon.png), as Electron sets it.
(process as { resourcesPath?: string }).resourcesPath = process.env['PICTOR_BOOT_RESOURCES'];
const APP_PATH = process.env['PICTOR_BOOT_APP'] ?? '/nonexistent';

function report(message: Record<string, unknown>): void {
  process.send?.(message);
}

/** An object whose unknown methods are no-ops that report their name once. */
function lenient<T extends object>(name: string, target: T): T {
  const reported = new Set<string>();
  return new Proxy(target, {
    get(object, key, receiver) {
      if (key in object || typeof key === 'symbol') return Reflect.get(object, key, receiver);
      const full = `${name}.${String(key)}`;
      return () => {
        if (!reported.has(full)) report({ type: 'unmodelled', name: full });
        reported.add(full);
        return undefined;
      };
    },
  });
}

class StandInEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

class Session {
  setPermissionRequestHandler(): void {}
  setPermissionCheckHandler(): void {}
  setDevicePermissionHandler(): void {}
}
const defaultSession = lenient('session', new Session());

class WebContents extends EventEmitter {
  readonly session = defaultSession;
  mainFrame = { url: '' };
  setWindowOpenHandler(): void {}
  isDestroyed(): boolean {
    return false;
  }
  send(channel: string, payload: unknown): void {
    report({ type: 'event', channel, payload: JSON.parse(JSON.stringify(payload ?? null)) });
  }
  reload(): void {}
}

const windows: BrowserWindow[] = [];

export class BrowserWindow extends EventEmitter {
  readonly webContents: WebContents;
  constructor(readonly options: Record<string, unknown>) {
    super();
    this.webContents = lenient('webContents', new WebContents());
    windows.push(this);
    // A lenient proxy, so the window's many small calls (setTitle, setMinimumSize…) pass.
    return lenient('BrowserWindow', this);
  }
  static getAllWindows(): BrowserWindow[] {
    return windows;
  }
  async loadURL(url: string): Promise<void> {
    this.webContents.mainFrame = { url };
    const prefs = (this.options['webPreferences'] ?? {}) as Record<string, unknown>;
    // The channels with a handler as the page starts loading: any missing one is a call the page
    // could make before start-up has wired it (the order app-main.ts's start() keeps).
    report({
      type: 'window',
      url,
      preload: prefs['preload'] ?? null,
      channels: [...handlers.keys()],
    });
    // The page has loaded: what Electron emits when a real one finishes.
    setImmediate(() => {
      this.emit('ready-to-show');
      this.webContents.emit('did-finish-load');
    });
  }
  isDestroyed(): boolean {
    return false;
  }
  isVisible(): boolean {
    return true;
  }
  isMinimized(): boolean {
    return false;
  }
  isMaximized(): boolean {
    return false;
  }
  isFocused(): boolean {
    return false;
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1280, height: 800 };
  }
}

const handlers = new Map<string, (event: unknown, input: unknown) => unknown>();
let channelsReported: ReturnType<typeof setTimeout> | null = null;

export const ipcMain = {
  handle(channel: string, handler: (event: unknown, input: unknown) => unknown): void {
    handlers.set(channel, handler);
    // Reported once registration settles (handlers are registered in one synchronous run).
    if (channelsReported) clearTimeout(channelsReported);
    channelsReported = setTimeout(() => report({ type: 'channels', names: [...handlers.keys()] }));
  },
  removeHandler(channel: string): void {
    handlers.delete(channel);
  },
  on(): void {},
};

class App extends EventEmitter {
  readonly isPackaged = true;
  readonly name = 'Pictor';
  readonly commandLine = { hasSwitch: () => false, appendSwitch: () => undefined };
  /** macOS only. */
  readonly dock = undefined;
  private ready = false;
  whenReady(): Promise<void> {
    return new Promise((resolve) =>
      setImmediate(() => {
        if (!this.ready) {
          this.ready = true;
          this.emit('ready');
        }
        resolve();
      }),
    );
  }
  isReady(): boolean {
    return this.ready;
  }
  getPath(name: string): string {
    return join(BOOT_DIR, name);
  }
  getAppPath(): string {
    return APP_PATH;
  }
  getVersion(): string {
    return '0.0.0-boot';
  }
  getLocale(): string {
    return 'en-US';
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  quit(): void {
    const before = new StandInEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    const will = new StandInEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.emit('quit', new StandInEvent(), 0);
    setImmediate(() => process.exit(0));
  }
  exit(code = 0): void {
    process.exit(code);
  }
}

export const app = lenient('app', new App());

export const protocol = {
  registerSchemesAsPrivileged(): void {},
  handle(scheme: string): void {
    report({ type: 'protocol', scheme });
  },
  isProtocolHandled: () => false,
};

export const session = { defaultSession };

/** The image renderer's port pair (adapters/chromium-image-engine.ts); the boot runs no image job. */
export class MessageChannelMain {
  readonly port1 = lenient('MessagePortMain', new EventEmitter());
  readonly port2 = lenient('MessagePortMain', new EventEmitter());
}

interface RedirectingRequest extends EventEmitter {
  end(body?: Buffer): void;
  abort(): void;
}

/** `net.request` with `redirect: 'manual'`, over Node's http: a 3xx becomes a `redirect` event. */
function netRequest(options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
}): RedirectingRequest {
  const emitter = new EventEmitter() as RedirectingRequest;
  const request = httpRequest(options.url, {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
  });
  request.on('response', (message) => {
    const location = message.headers.location;
    if (message.statusCode && message.statusCode >= 300 && message.statusCode < 400 && location) {
      const headers: Record<string, string[]> = {};
      for (const [name, value] of Object.entries(message.headers))
        headers[name] = Array.isArray(value) ? value : [String(value)];
      message.resume();
      emitter.emit(
        'redirect',
        message.statusCode,
        options.method ?? 'GET',
        new URL(location, options.url).href,
        headers,
      );
      return;
    }
    emitter.emit('response', message);
  });
  request.on('error', (error) => emitter.emit('error', error));
  emitter.end = (body?: Buffer) => void (body ? request.end(body) : request.end());
  emitter.abort = () => void request.destroy();
  return emitter;
}

export const net = {
  fetch: (url: string, init?: RequestInit) => fetch(url, init),
  request: netRequest,
  isOnline: () => true,
};

export const safeStorage = {
  isEncryptionAvailable: () => true,
  isAsyncEncryptionAvailable: async () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: async (text: string) => Buffer.from(`boot:${text}`),
  decryptStringAsync: async (buffer: Buffer) => ({
    result: buffer.toString().slice(5),
    shouldReEncrypt: false,
  }),
};

export const dialog = lenient('dialog', {
  showMessageBox: async () => ({ response: 0, checkboxChecked: false }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
  showErrorBox: (title: string, content: string) => report({ type: 'error-box', title, content }),
});
export const Menu = lenient('Menu', {
  buildFromTemplate: (template: unknown) => template,
  setApplicationMenu: () => undefined,
});
export const Notification = Object.assign(
  class {
    show(): void {}
  },
  { isSupported: () => false },
);
export const powerMonitor = lenient('powerMonitor', new EventEmitter());
export const nativeTheme = lenient(
  'nativeTheme',
  Object.assign(new EventEmitter(), { shouldUseDarkColors: false, themeSource: 'system' }),
);
const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1 };
export const screen = lenient('screen', {
  getAllDisplays: () => [display],
  getPrimaryDisplay: () => display,
  getDisplayMatching: () => display,
  on: () => undefined,
});
export const shell = lenient('shell', {});
export const clipboard = lenient('clipboard', {});
export const nativeImage = lenient('nativeImage', {
  createFromBuffer: () => ({ isEmpty: () => true }),
  createFromPath: () => ({ isEmpty: () => true }),
  createEmpty: () => ({ isEmpty: () => true }),
});
export class ClipboardItem {
  constructor(readonly items: unknown) {}
}
export const contextBridge = lenient('contextBridge', {});
export const ipcRenderer = lenient('ipcRenderer', {});

process.on(
  'message',
  (message: { type: string; id?: number; channel?: string; input?: unknown }) => {
    if (message.type === 'quit') {
      app.quit();
      return;
    }
    if (message.type !== 'invoke' || !message.channel) return;
    const window = windows[0];
    const handler = handlers.get(message.channel);
    if (!window || !handler) {
      report({
        type: 'result',
        id: message.id,
        value: { ok: false, error: 'no window or handler' },
      });
      return;
    }
    const event = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    Promise.resolve(handler(event, message.input)).then(
      (value) =>
        report({
          type: 'result',
          id: message.id,
          value: JSON.parse(JSON.stringify(value ?? null)),
        }),
      (error: unknown) =>
        report({ type: 'result', id: message.id, value: { thrown: String(error) } }),
    );
  },
);

/** electron-store (in the packed node_modules) imports Electron's default export. */
const electronModule = {
  app,
  BrowserWindow,
  ClipboardItem,
  clipboard,
  contextBridge,
  dialog,
  ipcMain,
  ipcRenderer,
  Menu,
  MessageChannelMain,
  nativeImage,
  nativeTheme,
  net,
  Notification,
  powerMonitor,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
};
// eslint-disable-next-line no-restricted-syntax -- the real module has one, and packed code uses it
export default electronModule;
