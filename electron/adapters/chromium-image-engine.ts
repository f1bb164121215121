/**
 * The app's image engine: Chromium's codecs in one hidden, sandboxed window on its own session
 * (image-renderer-session.ts), started with the first job and closed when idle by the core's
 * RendererJobs. The window has no Node, no API and one MessagePort, handed to its preload once the
 * page has loaded; it may not navigate, open windows or reach the network.
 */
import { BrowserWindow, MessageChannelMain, type Session } from 'electron';
import { RendererImageEngine } from '../core/images';
import {
  APP_SCHEME,
  IMAGE_JOB_HOST,
  IMAGE_PAGE_HOST,
  IMAGE_PAGE_URL,
  IMAGE_SCHEME,
} from '../app/protocol/schemes';
import type { Clock } from '../ports/clock';
import type {
  ImageRendererConnection,
  ImageRendererEvents,
  ImageRendererHost,
} from '../ports/image-renderer-host';
import { silentLogger, type Logger } from '../ports/logger';
import { IMAGE_PORT_CHANNEL } from '../../shared/image-renderer/protocol';
import { prepareImageSession } from './image-renderer-session';
import { HARDENED_WEB_PREFERENCES } from './web-preferences';

export interface ChromiumImageEngineOptions {
  /** The built page: dist-electron/image-renderer. */
  readonly pageRoot: string;
  /** The image preload bundle: dist-electron/image-preload.cjs. */
  readonly preloadPath: string;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Jobs at once, job timeout and idle time (see RendererJobs); defaults there. */
  readonly maxInFlight?: number;
  readonly jobTimeoutMs?: number;
  readonly idleMs?: number;
  /**
   * False while the app quits: no new window opens then, and a job finds the renderer
   * unavailable (host/app-lifetime.ts). Default: always.
   */
  readonly mayOpenWindows?: () => boolean;
}

/**
 * The hidden window: the hardened flags (HARDENED_WEB_PREFERENCES) and its own (a session of its
 * own, no throttling, dialogs, spellcheck, WebGL or DevTools), inside `new BrowserWindow(…)`,
 * where Electronegativity reads them.
 */
function createImageWindow(session: Session, preloadPath: string): BrowserWindow {
  return new BrowserWindow({
    show: false,
    width: 64,
    height: 64,
    webPreferences: {
      ...HARDENED_WEB_PREFERENCES,
      // Electronegativity reads only this literal (not a spread) and reports these three when
      // they are absent: so they are written here too, equal to the constant (the test checks).
      contextIsolation: true,
      sandbox: true,
      disableBlinkFeatures: 'Auxclick',
      session,
      preload: preloadPath, // eng-disable PRELOAD_JS_CHECK (ours, sandboxed, hands over one MessagePort)
      backgroundThrottling: false,
      disableDialogs: true,
      spellcheck: false,
      webgl: false,
      devTools: false,
    },
  });
}

/** Refuses every navigation, redirect, new window and <webview>: the page stays as loaded. */
function pinPage(win: BrowserWindow): void {
  const refuse = (event: { preventDefault(): void }) => event.preventDefault();
  win.webContents.on('will-navigate', refuse);
  win.webContents.on('will-frame-navigate', refuse);
  win.webContents.on('will-redirect', refuse);
  win.webContents.on('will-attach-webview', refuse);
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Opens one renderer and connects its port; `events.gone` reports the first way it ends. */
function openRenderer(
  session: Session,
  preloadPath: string,
  events: ImageRendererEvents,
): ImageRendererConnection {
  const win = createImageWindow(session, preloadPath);
  pinPage(win);
  const { port1, port2 } = new MessageChannelMain();
  let ended = false;
  const end = (reason: string | null) => {
    if (ended) return;
    ended = true;
    port1.close();
    if (!win.isDestroyed()) win.destroy();
    if (reason !== null) events.gone(reason);
  };
  port1.on('message', (event) => events.answer(event.data));
  port1.start();
  const contents = win.webContents;
  contents.on('render-process-gone', (_event, details) =>
    end(`its process ended (${details.reason})`),
  );
  contents.on('did-fail-load', () => end('its page did not load'));
  contents.once('did-finish-load', () => contents.postMessage(IMAGE_PORT_CHANNEL, null, [port2]));
  win.on('unresponsive', () => end('it stopped responding'));
  win.on('closed', () => end('its window closed'));
  win.loadURL(IMAGE_PAGE_URL).catch(() => end('its page did not load'));
  return {
    post: (request) => {
      if (!ended) port1.postMessage(request);
    },
    close: () => end(null),
  };
}

/**
 * The `chromium` engine for the app. Starts nothing until the first job (after `ready`). Its
 * renderer also runs the app's Content Credentials jobs (`runJob`).
 */
export function createChromiumImageEngine(
  options: ChromiumImageEngineOptions,
): RendererImageEngine {
  const logger = options.logger ?? silentLogger;
  let session: Session | null = null;
  const host: ImageRendererHost = {
    sourceUrl: (token) => `${IMAGE_SCHEME}://${IMAGE_JOB_HOST}/${token}`,
    async start(events) {
      if (options.mayOpenWindows?.() === false)
        throw new Error('Pictor is quitting: the image renderer does not open again');
      session ??= prepareImageSession({
        pageRoot: options.pageRoot,
        serveSource: (request) => engine.sources.serve(request),
        logger,
      });
      return openRenderer(session, options.preloadPath, events);
    },
  };
  const engine = new RendererImageEngine({
    host,
    pageOrigin: `${APP_SCHEME}://${IMAGE_PAGE_HOST}`,
    clock: options.clock,
    logger,
    ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
    ...(options.jobTimeoutMs !== undefined ? { jobTimeoutMs: options.jobTimeoutMs } : {}),
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
  });
  return engine;
}
