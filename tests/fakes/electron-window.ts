/**
 * Small recording fakes of the Electron pieces the window, its guards and the protocols use:
 * BrowserWindow, webContents, session, app, screen, nativeTheme, shell and protocol. Use from
 * `vi.mock('electron', async () => (await import('…/fakes/electron-window')).fakeElectron)`.
 * Each test calls `resetElectronFakes()` first.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

type Handler = (...args: never[]) => unknown;

/** An event object whose preventDefault is recorded, as Electron's are. */
export class FakeEvent {
  defaultPrevented = false;
  constructor(readonly url = '') {}
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/** A session: its permission handlers, and its events (`will-download`). */
export class FakeSession extends EventEmitter {
  permissionRequestHandler: Handler | null = null;
  permissionCheckHandler: Handler | null = null;
  devicePermissionHandler: Handler | null = null;
  setPermissionRequestHandler(handler: Handler | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler | null): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: Handler | null): void {
    this.devicePermissionHandler = handler;
  }
}

interface Display {
  id: number;
  workArea: Bounds;
}

/** The session windows get, as `session.defaultSession`. */
export function defaultSession(): FakeSession {
  fakeState.defaultSession ??= new FakeSession();
  return fakeState.defaultSession;
}

const fakeState = {
  defaultSession: null as FakeSession | null,
  displays: [] as Display[],
  loadResult: (_url: string): Promise<void> => Promise.resolve(),
};

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  constructor(readonly session: FakeSession = new FakeSession()) {
    super();
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  /** Emits a navigation-like event the way Electron 45 does (event object carries the url). */
  attempt(event: string, url: string): FakeEvent {
    const fake = new FakeEvent(url);
    this.emit(event, fake, url);
    return fake;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents(defaultSession());
  readonly loaded: string[] = [];
  visible = false;
  maximized = false;
  minimized = false;
  destroyed = false;
  focused = false;
  normalBounds: Bounds;
  readonly calls: string[] = [];

  constructor(readonly options: Record<string, unknown>) {
    super();
    this.normalBounds = {
      x: Number(options['x'] ?? 0),
      y: Number(options['y'] ?? 0),
      width: Number(options['width'] ?? 0),
      height: Number(options['height'] ?? 0),
    };
    FakeBrowserWindow.instances.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return fakeState.loadResult(url);
  }
  show(): void {
    this.calls.push('show');
    this.visible = true;
  }
  maximize(): void {
    this.calls.push('maximize');
    this.maximized = true;
  }
  restore(): void {
    this.calls.push('restore');
    this.minimized = false;
  }
  focus(): void {
    this.calls.push('focus');
    this.focused = true;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds(): Bounds {
    return { ...this.normalBounds };
  }
}

export class FakeApp extends EventEmitter {
  lockGranted = true;
  requestSingleInstanceLock(): boolean {
    return this.lockGranted;
  }
}

/** Displays `screen` reports; the first is the primary one. */
export function setDisplays(workAreas: Bounds[]): void {
  fakeState.displays = workAreas.map((workArea, index) => ({ id: index + 1, workArea }));
}

/** Makes `loadURL` settle this way from now on. */
export function setLoadResult(result: (url: string) => Promise<void>): void {
  fakeState.loadResult = result;
}

export const fakeElectron = {
  BrowserWindow: FakeBrowserWindow,
  nativeTheme: { shouldUseDarkColors: false },
  screen: {
    getPrimaryDisplay: () => fakeState.displays[0],
    getAllDisplays: () => [...fakeState.displays],
  },
  shell: { openExternal: vi.fn(async (_url: string) => undefined) },
  protocol: {
    registerSchemesAsPrivileged: vi.fn(),
    handle: vi.fn(),
  },
};

/** The handler last given to `protocol.handle` for `scheme`. */
export function protocolHandler(scheme: string): (request: Request) => Promise<Response> {
  const call = fakeElectron.protocol.handle.mock.calls.findLast(([name]) => name === scheme);
  if (!call) throw new Error(`no protocol.handle for ${scheme}`);
  return call[1] as (request: Request) => Promise<Response>;
}

export function resetElectronFakes(): void {
  FakeBrowserWindow.instances = [];
  fakeState.defaultSession = new FakeSession();
  fakeState.loadResult = () => Promise.resolve();
  setDisplays([{ x: 0, y: 0, width: 1920, height: 1040 }]);
  fakeElectron.nativeTheme.shouldUseDarkColors = false;
  fakeElectron.shell.openExternal.mockClear();
  fakeElectron.shell.openExternal.mockImplementation(async () => undefined);
  fakeElectron.protocol.registerSchemesAsPrivileged.mockClear();
  fakeElectron.protocol.handle.mockClear();
}
