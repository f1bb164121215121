/**
 * The `electron` module for the packaged-app boot test (packaged-boot.test.ts): just enough of
 * Electron's main-process API, recording what the app does with it, for the packed main bundle to
 * start in plain Node. Plain JavaScript, run by `node` itself (no tsx, no TypeScript loader), as
 * the packed bundle is. A resolve hook (resolve-electron.mjs) maps `electron` here and lays out
 * process.argv as a packaged app's (`[binary, …args]`, no `defaultApp`).
 *
 * The test drives it over the child process's IPC channel:
 * - it reports `{ type: 'protocol', scheme }`, `{ type: 'window', url, preload, channels }` (when
 *   the window loads, with the channels that have a handler then), `{ type: 'channels', names }` (when IPC handlers are registered) and every
 *   `webContents.send` as `{ type: 'event', channel, payload }`;
 * - it answers `{ type: 'invoke', id, channel, input }` with `{ type: 'result', id, value }`, the
 *   handler called as the window's main frame would call it;
 * - `{ type: 'quit' }` runs Electron's quit sequence (before-quit, every window closed, will-quit,
 *   quit, exit 0); `{ type: 'close-window' }` closes the app's window as its close button does.
 *   Windows are kept as Electron keeps them: hidden ones count, and only when the last one closes
 *   outside a quit does the app emit `window-all-closed` (Electron itself then quits when nothing
 *   else listens);
 * - the image renderer's hidden window is reported as `{ type: 'image-window' }`; its page is
 *   image-page-stand-in.mjs (sharp), or never loads (PICTOR_BOOT_IMAGE_PAGE=fails-to-load);
 * - safeStorage answers at once, or never (PICTOR_BOOT_KEYCHAIN=never-answers: a keychain prompt
 *   nobody answers).
 * Anything else the app touches and this file does not model throws, and is reported as
 * `{ type: 'unmodelled', name }`: a new Electron call on the start-up path fails the test until
 * it is modelled here, instead of passing as a silent no-op.
 */
import { EventEmitter } from 'node:events';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { PAGE_BEHAVIOUR, runImagePage } from './image-page-stand-in.mjs';
const BOOT_DIR = process.env['PICTOR_BOOT_DIR'] ?? '/nonexistent';
const APP_PATH = process.env['PICTOR_BOOT_APP'] ?? '/nonexistent';
/** @param {Record<string, unknown>} message */
function report(message) {
  process.send?.(message);
}
/**
 * Properties JavaScript itself looks up on any object (a promise resolving to it, JSON, util
 * inspection): not calls of the app's, so absent without a report.
 */
const LANGUAGE_PROBES = new Set(['then', 'toJSON', 'constructor', 'asymmetricMatch', 'nodeType']);
/**
 * An object whose every property the app reads must be modelled: reading another one reports it
 * and throws, so start-up fails where it uses Electron in a way this file does not know.
 * @template {object} T
 * @param {string} name
 * @param {T} target
 * @returns {T}
 */
function strict(name, target) {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (key in object || typeof key === 'symbol') return Reflect.get(object, key, receiver);
      if (LANGUAGE_PROBES.has(key)) return undefined;
      const full = `${name}.${String(key)}`;
      report({ type: 'unmodelled', name: full });
      throw new Error(
        `The boot test's Electron stand-in does not model ${full}: model it in tests/packaging/boot/electron-stand-in.mjs`,
      );
    },
  });
}
class StandInEvent {
  defaultPrevented = false;
  preventDefault() {
    this.defaultPrevented = true;
  }
}
class Session {
  setPermissionRequestHandler() {}
  setPermissionCheckHandler() {}
  setDevicePermissionHandler() {}
  /** `will-download` (adapters/window-guards.ts guardSession): no page downloads here. */
  on() {}
}
const defaultSession = strict('session', new Session());
/** The image renderer's own session (adapters/image-renderer-session.ts): its scheme handlers. */
class PartitionSession extends Session {
  handlers = new Map();
  protocol = strict('session.protocol', {
    handle: (scheme, handler) => void this.handlers.set(scheme, handler),
  });
  webRequest = strict('session.webRequest', { onBeforeRequest() {} });
}
/**
 * The session of the service's requests to this computer (its proxy `direct`,
 * adapters/electron-net-fetch.ts): fetch over Node's, no proxy to set.
 */
const LOOPBACK_PARTITION = 'pictor-loopback';
function loopbackSession() {
  return strict(`session(${LOOPBACK_PARTITION})`, {
    setProxy: async () => undefined,
    fetch: (url, init) => fetch(url, init),
  });
}
const partitions = new Map();
function fromPartition(partition) {
  if (!partitions.has(partition))
    partitions.set(
      partition,
      partition === LOOPBACK_PARTITION
        ? loopbackSession()
        : strict('session', new PartitionSession()),
    );
  return partitions.get(partition);
}
class WebContents extends EventEmitter {
  session = defaultSession;
  mainFrame = { url: '' };
  setWindowOpenHandler() {}
  isDestroyed() {
    return false;
  }
  send(channel, payload) {
    report({ type: 'event', channel, payload: JSON.parse(JSON.stringify(payload ?? null)) });
  }
  /** The image renderer's port handed to its page (adapters/chromium-image-engine.ts). */
  postMessage(_channel, _message, ports) {
    const session = this.session;
    if (ports?.[0] && session instanceof PartitionSession)
      runImagePage(ports[0], (scheme) => session.handlers.get(scheme));
  }
  reload() {}
}
const windows = [];
export class BrowserWindow extends EventEmitter {
  options;
  webContents;
  destroyed = false;
  constructor(options) {
    super();
    this.options = options;
    const contents = new WebContents();
    contents.session = options?.webPreferences?.session ?? defaultSession;
    this.webContents = strict('webContents', contents);
    windows.push(this);
    return strict('BrowserWindow', this);
  }
  static getAllWindows() {
    return windows.filter((window) => !window.destroyed);
  }
  async loadURL(url) {
    this.webContents.mainFrame = { url };
    if (url.startsWith('pictor-app://images/')) {
      report({ type: 'image-window', url, page: PAGE_BEHAVIOUR });
      const loaded = PAGE_BEHAVIOUR === 'fails-to-load' ? 'did-fail-load' : 'did-finish-load';
      setImmediate(() => this.webContents.emit(loaded));
      return;
    }
    const prefs = this.options['webPreferences'] ?? {};
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
  isDestroyed() {
    return this.destroyed;
  }
  /** The close button, or `win.close()`: `close` may be refused; false when it was. */
  close() {
    if (this.destroyed) return true;
    const event = new StandInEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    return true;
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
    windowClosed();
  }
  isVisible() {
    return true;
  }
  isMinimized() {
    return false;
  }
  isMaximized() {
    return false;
  }
  isFocused() {
    return false;
  }
  show() {
    report({ type: 'shown' });
  }
  /** The taskbar or Dock progress of running tasks (app/os/task-activity.ts). */
  setProgressBar(progress) {
    report({ type: 'progress', progress });
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1280, height: 800 };
  }
}
const handlers = new Map();
let channelsReported = null;
export const ipcMain = strict('ipcMain', {
  handle(channel, handler) {
    handlers.set(channel, handler);
    // Reported once registration settles (handlers are registered in one synchronous run).
    if (channelsReported) clearTimeout(channelsReported);
    channelsReported = setTimeout(() => report({ type: 'channels', names: [...handlers.keys()] }));
  },
  removeHandler(channel) {
    handlers.delete(channel);
  },
  on() {},
});
/** Called as a window leaves the list: the last one, outside a quit, is `window-all-closed`. */
function windowClosed() {
  if (BrowserWindow.getAllWindows().length > 0) return;
  if (app.quitting) app.willQuit();
  // Electron's own listener (lib/browser/init.ts) quits when it is the only one.
  else if (app.listenerCount('window-all-closed') === 0) app.quit();
  else app.emit('window-all-closed', new StandInEvent());
}
class App extends EventEmitter {
  isPackaged = true;
  quitting = false;
  name = 'Pictor';
  commandLine = { hasSwitch: () => false, appendSwitch: () => undefined };
  /** macOS only. */
  dock = undefined;
  ready = false;
  whenReady() {
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
  isReady() {
    return this.ready;
  }
  getPath(name) {
    return join(BOOT_DIR, name);
  }
  getAppPath() {
    return APP_PATH;
  }
  getVersion() {
    return '0.0.0-boot';
  }
  getLocale() {
    return 'en-US';
  }
  getPreferredSystemLanguages() {
    return ['en-US'];
  }
  /** The Dock or launcher count of running tasks (Linux: Unity launchers; macOS: the Dock). */
  setBadgeCount() {
    return true;
  }
  requestSingleInstanceLock() {
    return true;
  }
  quit() {
    if (this.quitting) return;
    const before = new StandInEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    this.quitting = true;
    const open = BrowserWindow.getAllWindows();
    if (open.length === 0) this.willQuit();
    for (const window of open) {
      // A window that refuses to close cancels the quit, as in Electron.
      if (!window.close()) {
        this.quitting = false;
        return;
      }
    }
  }
  /** Every window closed during a quit: will-quit, which the app may hold for a later quit(). */
  willQuit() {
    const will = new StandInEvent();
    this.emit('will-quit', will);
    this.quitting = false;
    if (will.defaultPrevented) return;
    report({ type: 'will-quit' });
    this.emit('quit', new StandInEvent(), 0);
    setImmediate(() => process.exit(0));
  }
  exit(code = 0) {
    process.exit(code);
  }
}
export const app = strict('app', new App());
export const protocol = strict('protocol', {
  registerSchemesAsPrivileged() {},
  handle(scheme) {
    report({ type: 'protocol', scheme });
  },
  isProtocolHandled: () => false,
});
export const session = strict('session', { defaultSession, fromPartition });

/** One end of a port pair: a message posted on one is a `message` event on the other. */
class StandInPort extends EventEmitter {
  other = null;
  closed = false;
  start() {}
  postMessage(data) {
    const other = this.other;
    if (this.closed || !other) return;
    const cloned = structuredClone(data);
    setImmediate(() => {
      if (!other.closed) other.emit('message', { data: cloned, ports: [] });
    });
  }
  close() {
    this.closed = true;
  }
}
/** The image renderer's port pair (adapters/chromium-image-engine.ts). */
export class MessageChannelMain {
  port1;
  port2;
  constructor() {
    const [one, two] = [new StandInPort(), new StandInPort()];
    one.other = two;
    two.other = one;
    this.port1 = strict('MessagePortMain', one);
    this.port2 = strict('MessagePortMain', two);
  }
}
/** `net.request` with `redirect: 'manual'`, over Node's http: a 3xx becomes a `redirect` event. */
function netRequest(options) {
  const emitter = new EventEmitter();
  const request = httpRequest(options.url, {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
  });
  request.on('response', (message) => {
    const location = message.headers.location;
    if (message.statusCode && message.statusCode >= 300 && message.statusCode < 400 && location) {
      const headers = {};
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
  emitter.chunkedEncoding = false;
  emitter.write = (piece, _encoding, taken) => request.write(piece, () => taken?.());
  // Upload progress as Chromium reports it: a whole body's bytes once sent, never a chunked one's.
  let uploaded = 0;
  emitter.end = (body) =>
    void (body && !emitter.chunkedEncoding
      ? request.end(body, () => (uploaded = body.length))
      : request.end(body));
  emitter.getUploadProgress = () => ({
    active: uploaded > 0,
    started: uploaded > 0,
    current: uploaded,
    total: uploaded,
  });
  emitter.abort = () => void request.destroy();
  return emitter;
}
export const net = strict('net', {
  fetch: (url, init) => fetch(url, init),
  request: netRequest,
  isOnline: () => true,
});
/** PICTOR_BOOT_KEYCHAIN=never-answers: a keychain prompt nobody answers (its first answer never comes). */
const KEYCHAIN_ANSWERS = process.env['PICTOR_BOOT_KEYCHAIN'] !== 'never-answers';
export const safeStorage = strict('safeStorage', {
  isEncryptionAvailable: () => true,
  isAsyncEncryptionAvailable: () =>
    KEYCHAIN_ANSWERS ? Promise.resolve(true) : new Promise(() => undefined),
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: async (text) => Buffer.from(`boot:${text}`),
  decryptStringAsync: async (buffer) => ({
    result: buffer.toString().slice(5),
    shouldReEncrypt: false,
  }),
});
export const dialog = strict('dialog', {
  showMessageBox: async () => ({ response: 0, checkboxChecked: false }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
  showErrorBox: (title, content) => report({ type: 'error-box', title, content }),
});
export const Menu = strict('Menu', {
  buildFromTemplate: (template) => template,
  setApplicationMenu: () => undefined,
});
export const Notification = Object.assign(
  class {
    show() {}
  },
  { isSupported: () => false },
);
export const powerMonitor = strict('powerMonitor', new EventEmitter());
export const nativeTheme = strict(
  'nativeTheme',
  Object.assign(new EventEmitter(), { shouldUseDarkColors: false, themeSource: 'system' }),
);
const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1 };
export const screen = strict('screen', {
  getAllDisplays: () => [display],
  getPrimaryDisplay: () => display,
  getDisplayMatching: () => display,
  on: () => undefined,
});
export const shell = strict('shell', {});
export const clipboard = strict('clipboard', {});
export const nativeImage = strict('nativeImage', {
  createFromBuffer: () => ({ isEmpty: () => true }),
  createFromPath: () => ({ isEmpty: () => true }),
  createEmpty: () => ({ isEmpty: () => true }),
});
export class ClipboardItem {
  items;
  constructor(items) {
    this.items = items;
  }
}
export const contextBridge = strict('contextBridge', {});
export const ipcRenderer = strict('ipcRenderer', {});
process.on('message', (message) => {
  if (message.type === 'quit') {
    app.quit();
    return;
  }
  if (message.type === 'close-window') {
    report({
      type: 'closing',
      open: BrowserWindow.getAllWindows().map((window) => window.webContents.mainFrame.url),
    });
    windows
      .find(
        (window) =>
          !window.destroyed && !window.webContents.mainFrame.url.startsWith('pictor-app://images/'),
      )
      ?.close();
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
    (error) => report({ type: 'result', id: message.id, value: { thrown: String(error) } }),
  );
});
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
