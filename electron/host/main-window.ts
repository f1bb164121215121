/**
 * The app's one main window: opened (or brought forward) on launch, a second launch, macOS
 * `activate`, a menu command or a notification, but only once the runtime is wired (before that
 * no window may load: pictor-app:// and the IPC handlers do not exist yet). A renderer that
 * crashes is reloaded and the page told once; the window keeps its bounds in the settings.
 */
import { app, dialog, type BrowserWindow } from 'electron';
import { watchRendererCrashes } from '../adapters/renderer-crashes';
import { systemClock } from '../adapters/system-clock';
import { WindowGestures } from '../adapters/window-gestures';
import { APP_ENTRY_URL } from '../app/protocol/schemes';
import { RendererCrashPolicy } from '../app/window/crash-policy';
import type { SettingsService } from '../core/settings';
import type { Logger } from '../ports/logger';
import { createMainWindow } from '../window';
import type { AppNotices } from './app-notices';

export interface MainWindowOptions {
  /** The bundled preload, beside main.js. */
  readonly preloadPath: string;
  readonly logger: Logger;
  readonly notices: Pick<AppNotices, 'keep'>;
  /** Called with each new window (the quit hold watches it, the dock progress is shown on it). */
  readonly onOpened: (window: BrowserWindow) => void;
}

export class MainWindowHost {
  private window: BrowserWindow | null = null;
  /** The user's presses in every window this host opens (the key question's second thought). */
  readonly gestures = new WindowGestures();
  /** Set once the runtime is wired: windows may open from then on. */
  private settings: Pick<SettingsService, 'getWindowBounds' | 'setWindowBounds' | 'reload'> | null =
    null;
  private readonly crashPolicy = new RendererCrashPolicy({ now: () => systemClock.now() });

  constructor(private readonly options: MainWindowOptions) {}

  /** The window, when one is open. */
  current(): BrowserWindow | null {
    return this.window;
  }

  /** Resolves once a window of the app has shown (at once when one is visible). */
  shown(): Promise<void> {
    const window = this.window;
    if (!window || window.isDestroyed() || window.isVisible()) return Promise.resolve();
    return new Promise((resolve) => {
      window.once('show', () => resolve());
      window.once('closed', () => resolve());
    });
  }

  /** The runtime is wired: windows may open now, with the bounds the settings keep. */
  ready(settings: Pick<SettingsService, 'getWindowBounds' | 'setWindowBounds' | 'reload'>): void {
    this.settings = settings;
  }

  /** Brings the window forward, or opens it; nothing before {@link ready}. */
  open(): void {
    const current = this.window;
    if (current && !current.isDestroyed()) {
      if (current.isMinimized()) current.restore();
      current.show();
      current.focus();
      return;
    }
    const { settings } = this;
    if (!settings) return;
    const { logger } = this.options;
    const window = createMainWindow({
      preloadPath: this.options.preloadPath,
      appUrl: APP_ENTRY_URL,
      bounds: settings.getWindowBounds(),
      isPackaged: app.isPackaged,
      onBoundsChanged: (state) => settings.setWindowBounds(state),
      logger,
    });
    this.window = window;
    this.gestures.watch(window.webContents);
    watchRendererCrashes(window, {
      policy: this.crashPolicy,
      logger,
      dialog,
      onRecovered: () => this.options.notices.keep('window_recovered'),
      quit: () => app.quit(),
    });
    // The settings file read again as the window comes forward: a `pictor` command's change is
    // shown at once, before the next look at the file (SettingsService.follow).
    window.on('focus', () => settings.reload());
    window.on('closed', () => {
      if (this.window === window) this.window = null;
    });
    this.options.onOpened(window);
  }
}
