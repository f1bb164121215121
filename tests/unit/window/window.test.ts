import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FakeApp,
  FakeBrowserWindow,
  defaultSession,
  fakeElectron,
  resetElectronFakes,
  setDisplays,
  setLoadResult,
} from '../../fakes/electron-window';
import { UNTIL } from '../../support/waits';
import { REPO_ROOT } from '../../support/source-files';

vi.mock('electron', async () => (await import('../../fakes/electron-window')).fakeElectron);

const { WINDOW_BACKGROUND, claimSingleInstance, createMainWindow } =
  await import('../../../electron/window');

const APP_URL = 'pictor-app://app/index.html';
const base = { preloadPath: '/app/dist-electron/preload.cjs', appUrl: APP_URL, isPackaged: true };

function created(): FakeBrowserWindow {
  const win = FakeBrowserWindow.instances.at(-1);
  if (!win) throw new Error('no window created');
  return win;
}

beforeEach(() => {
  resetElectronFakes();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createMainWindow options', () => {
  it('sets every secure webPreference', () => {
    createMainWindow(base);
    expect(created().options['webPreferences']).toEqual({
      preload: '/app/dist-electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: true,
      devTools: false,
    });
  });

  it('allows DevTools only when not packaged', () => {
    createMainWindow({ ...base, isPackaged: false });
    expect(created().options['webPreferences']).toMatchObject({ devTools: true });
  });

  it('starts hidden, at least 800x600, on the theme background', () => {
    createMainWindow(base);
    expect(created().options).toMatchObject({
      show: false,
      minWidth: 800,
      minHeight: 600,
      backgroundColor: WINDOW_BACKGROUND.light,
    });
    fakeElectron.nativeTheme.shouldUseDarkColors = true;
    createMainWindow(base);
    expect(created().options['backgroundColor']).toBe(WINDOW_BACKGROUND.dark);
  });

  it("uses the renderer's own background colours, so nothing flashes when it paints", () => {
    const tokens = readFileSync(join(REPO_ROOT, 'renderer/styles/tokens.css'), 'utf8');
    const light = /\[data-theme='light'\][^}]*--color-bg:\s*(#[0-9a-f]{6})/i.exec(tokens)?.[1];
    const dark = /\[data-theme='dark'\][^}]*--color-bg:\s*(#[0-9a-f]{6})/i.exec(tokens)?.[1];
    expect({ light, dark }).toEqual(WINDOW_BACKGROUND);
  });

  it('loads the app URL and logs, not throws, when loading fails', async () => {
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => errors.push(m) };
    setLoadResult(() => Promise.reject(new Error('ERR_FAILED')));
    createMainWindow({ ...base, logger });
    expect(created().loaded).toEqual([APP_URL]);
    await vi.waitFor(() => expect(errors).toEqual(['The window could not load the app']), UNTIL);
  });
});

describe('showing', () => {
  it('shows the window only on ready-to-show', () => {
    createMainWindow(base);
    const win = created();
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.calls).toEqual(['show']);
  });

  it('maximizes before showing when it was left maximized', () => {
    createMainWindow({ ...base, bounds: { width: 1000, height: 700, maximized: true } });
    created().emit('ready-to-show');
    expect(created().calls).toEqual(['maximize', 'show']);
  });
});

describe('bounds', () => {
  it('restores the saved place and size', () => {
    createMainWindow({ ...base, bounds: { x: 40, y: 30, width: 1000, height: 700 } });
    expect(created().options).toMatchObject({ x: 40, y: 30, width: 1000, height: 700 });
  });

  it('drops a place on a display that is gone (the window is centred)', () => {
    setDisplays([{ x: 0, y: 0, width: 1440, height: 860 }]);
    createMainWindow({ ...base, bounds: { x: 3000, y: 30, width: 1000, height: 700 } });
    expect(created().options).not.toHaveProperty('x');
    expect(created().options).not.toHaveProperty('y');
  });

  it('saves bounds once moves settle, and at once on close', () => {
    vi.useFakeTimers();
    const saved: unknown[] = [];
    createMainWindow({
      ...base,
      bounds: { x: 10, y: 10, width: 900, height: 700 },
      onBoundsChanged: (state) => saved.push(state),
      boundsSaveDelayMs: 300,
    });
    const win = created();
    win.normalBounds = { x: 50, y: 60, width: 1000, height: 750 };
    win.emit('move');
    win.emit('resize');
    vi.advanceTimersByTime(299);
    win.emit('move');
    vi.advanceTimersByTime(299);
    expect(saved).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(saved).toEqual([{ x: 50, y: 60, width: 1000, height: 750, maximized: false }]);

    win.maximized = true;
    win.emit('maximize');
    win.emit('close');
    expect(saved).toHaveLength(2);
    expect(saved[1]).toEqual({ x: 50, y: 60, width: 1000, height: 750, maximized: true });
    win.destroyed = true;
    win.emit('closed');
    vi.advanceTimersByTime(1_000);
    expect(saved).toHaveLength(2);
  });
});

describe('guards on the main window', () => {
  it('guards its webContents and session', () => {
    createMainWindow(base);
    const contents = created().webContents;
    expect(contents.attempt('will-navigate', 'https://example.com/').defaultPrevented).toBe(true);
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({
      action: 'deny',
    });
    expect(defaultSession().permissionCheckHandler).not.toBeNull();
  });
});

describe('claimSingleInstance', () => {
  it('returns false and listens to nothing when another instance holds the lock', () => {
    const app = new FakeApp();
    app.lockGranted = false;
    expect(claimSingleInstance(app as never, () => null)).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('restores, shows and focuses the window on a second launch', () => {
    const app = new FakeApp();
    createMainWindow(base);
    const win = created();
    win.minimized = true;
    expect(claimSingleInstance(app as never, () => win as never)).toBe(true);
    app.emit('second-instance', {}, [], '/');
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
  });

  it('only focuses a visible, normal window', () => {
    const app = new FakeApp();
    createMainWindow(base);
    const win = created();
    win.visible = true;
    claimSingleInstance(app as never, () => win as never);
    app.emit('second-instance', {}, [], '/');
    expect(win.calls).toEqual(['focus']);
  });

  it('asks for a new window when there is none or it was destroyed', () => {
    const app = new FakeApp();
    const onNoWindow = vi.fn();
    let current: FakeBrowserWindow | null = null;
    claimSingleInstance(app as never, () => current as never, onNoWindow);
    app.emit('second-instance', {}, [], '/');
    createMainWindow(base);
    current = created();
    current.destroyed = true;
    app.emit('second-instance', {}, [], '/');
    expect(onNoWindow).toHaveBeenCalledTimes(2);
    expect(current.calls).toEqual([]);
  });
});
