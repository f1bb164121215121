/**
 * The secure main window: isolated, sandboxed, no Node, guarded (see adapters/window-guards),
 * shown only once painted, in the theme's background colour so there is no white flash, at the
 * size and place the user left it.
 */
import { BrowserWindow, nativeTheme, screen, type App } from 'electron';
import { guardWebContents } from './adapters/window-guards';
import { HARDENED_WEB_PREFERENCES } from './adapters/web-preferences';
import {
  MIN_WINDOW_SIZE,
  fitWindowState,
  type Rect,
  type WindowState,
} from './app/window/window-bounds';
import { silentLogger, type Logger } from './ports/logger';

/** The window's colour before the renderer paints: `--color-bg` of renderer/styles/tokens.css. */
export const WINDOW_BACKGROUND = { dark: '#151518', light: '#f6f6f7' } as const;

/** How long moves and resizes settle before the bounds are saved. */
const BOUNDS_SAVE_DELAY_MS = 500;

export interface MainWindowOptions {
  /** Absolute path of the bundled (CommonJS) preload. */
  readonly preloadPath: string;
  /** What the window loads: `APP_ENTRY_URL` (pictor-app://app/index.html). */
  readonly appUrl: string;
  /** Saved {@link WindowState} from the last run, as read from disk: any shape is checked here. */
  readonly bounds?: unknown;
  /** `app.isPackaged`: DevTools are off in packaged builds. */
  readonly isPackaged: boolean;
  /** Receives the state to save, debounced while moving/resizing and at once on close. */
  readonly onBoundsChanged?: (state: WindowState) => void;
  readonly logger?: Logger;
  readonly boundsSaveDelayMs?: number;
}

function workAreas(): Rect[] {
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((display) => display.id !== primary.id);
  return [primary, ...others].map((display) => display.workArea);
}

function trackBounds(win: BrowserWindow, save: (state: WindowState) => void, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (win.isDestroyed()) return;
    // Normal bounds: a maximized window still remembers the size it returns to.
    save({ ...win.getNormalBounds(), maximized: win.isMaximized() });
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  };
  win.on('move', schedule);
  win.on('resize', schedule);
  win.on('maximize', schedule);
  win.on('unmaximize', schedule);
  win.on('close', flush);
  win.on('closed', () => clearTimeout(timer));
}

/** Creates, guards and loads the main window; it shows itself on `ready-to-show`. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const logger = options.logger ?? silentLogger;
  const state = fitWindowState(options.bounds, workAreas());
  // Inside `new BrowserWindow(…)`: Electronegativity checks webPreferences only there (a
  // variable or a `satisfies` wrapper hides them from it). The hardened flags come from
  // HARDENED_WEB_PREFERENCES; this window's own are its preload, safe dialogs, spellcheck and
  // DevTools outside a packaged app.
  const win = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'Pictor',
    backgroundColor: nativeTheme.shouldUseDarkColors
      ? WINDOW_BACKGROUND.dark
      : WINDOW_BACKGROUND.light,
    webPreferences: {
      ...HARDENED_WEB_PREFERENCES,
      // Electronegativity reads only this literal (not a spread) and reports these three when
      // they are absent: so they are written here too, equal to the constant (the test checks).
      contextIsolation: true,
      sandbox: true,
      disableBlinkFeatures: 'Auxclick',
      preload: options.preloadPath, // eng-disable PRELOAD_JS_CHECK (ours, sandboxed, exposes only the typed contract)
      safeDialogs: true,
      spellcheck: true,
      devTools: !options.isPackaged,
    },
  });
  guardWebContents(win.webContents, { appUrl: options.appUrl, logger });
  // The title bar, the taskbar, the Dock's and the system's window lists are the system's, not
  // the page's: a page's `document.title` (a compromised page's "Pictor: enter your password to
  // update", bidi controls and all) never reaches them. The window is called Pictor, always.
  win.on('page-title-updated', (event) => event.preventDefault());
  if (options.onBoundsChanged) {
    trackBounds(win, options.onBoundsChanged, options.boundsSaveDelayMs ?? BOUNDS_SAVE_DELAY_MS);
  }
  win.once('ready-to-show', () => {
    if (state.maximized) win.maximize();
    win.show();
  });
  win.loadURL(options.appUrl).catch((error: unknown) => {
    logger.error('The window could not load the app', { error: String(error) });
  });
  return win;
}

/**
 * Takes the single-instance lock. Returns false when another Pictor already runs: the caller
 * quits at once (the other instance is told and comes to the front). While this instance
 * runs, a second launch restores and focuses `getWindow()`, or calls `onNoWindow` (macOS,
 * all windows closed) so the caller can open one.
 */
export function claimSingleInstance(
  app: App,
  getWindow: () => BrowserWindow | null | undefined,
  onNoWindow?: () => void,
): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => {
    const win = getWindow();
    if (!win || win.isDestroyed()) {
      onNoWindow?.();
      return;
    }
    if (win.isMinimized()) win.restore();
    if (!win.isVisible()) win.show();
    win.focus();
  });
  return true;
}
