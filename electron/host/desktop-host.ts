/**
 * The desktop host's parts, each its own concern: the page's event emitter and one-time notices,
 * the main window, the tasks on the desktop (log, notifications, dock progress), the image
 * engine, and what start-up made (the runtime, its wiring, the power and network watch). Built
 * before the app is ready; start-up (desktop-start.ts) fills in what it makes, and the quit
 * ({@link quitInOrder}) ends everything in order.
 */
import { app } from 'electron';
import { QUIT_WAIT_MS, holdQuitForTrash } from '../adapters/quit-hold';
import { systemClock } from '../adapters/system-clock';
import type { PowerAndNetworkWatch } from '../adapters/power-and-network';
import type { AppEnvironment } from '../app/app-environment';
import type { AppRuntime } from '../app/app-runtime';
import type { UpdateService } from '../app/updates/update-service';
import type { RotatingFileLogger } from '../core/logging';
import { createEmitter, type Emit } from '../ipc/ipc-main-bridge';
import type { AppWiring } from '../ipc/wire-app';
import type { Clock } from '../ports/clock';
import { DisposableStore, type Disposable } from '../ports/disposable';
import { startAppImages, type AppImages } from './app-images';
import { appLifetime, type AppLifetime } from './app-lifetime';
import { AppNotices } from './app-notices';
import { MainWindowHost } from './main-window';
import { QUIT_LIMIT_MS, runQuitSteps, type QuitStep } from './quit-steps';
import { taskPresence, type TaskPresence } from './task-presence';

/** What start-up made, as it makes it: closed or ended at quit. */
export interface Started {
  runtime: AppRuntime | null;
  wiring: AppWiring | null;
  watch: PowerAndNetworkWatch | null;
  /** The app's updates, once started (after the first window showed). */
  updates: Pick<UpdateService, 'beforeQuit'> | null;
}

export interface DesktopHost {
  readonly environment: AppEnvironment;
  /** The app's log file (the stored key's text is redacted from it once the runtime runs). */
  readonly logger: RotatingFileLogger;
  readonly emit: Emit;
  readonly notices: AppNotices;
  readonly window: MainWindowHost;
  readonly presence: TaskPresence;
  readonly images: AppImages;
  /** Which windows decide when the app quits (the main window only). */
  readonly lifetime: AppLifetime;
  /** The runtime's subscriptions and the IPC registration, released once the runtime closed. */
  readonly wired: DisposableStore;
  readonly started: Started;
}

export function desktopHost(
  environment: AppEnvironment,
  logger: RotatingFileLogger,
  preloadPath: string,
): DesktopHost {
  const started: Started = { runtime: null, wiring: null, watch: null, updates: null };
  const current = () => mainWindow.current();
  const emit = createEmitter(() => current()?.webContents ?? null, logger);
  const notices = new AppNotices(emit);
  const presence = taskPresence({
    logger,
    window: current,
    notificationsOn: () => started.runtime?.settings.get().notifications ?? false,
    onNotificationClick: () => {
      mainWindow.open();
      emit('menu:command', { command: 'show-tasks' });
    },
    onNotificationsFailed: () => notices.tell('notifications_failed'),
  });
  const trashGate = holdQuitForTrash(app, () => started.wiring, emit);
  // After the quit hold's before-quit listener: a held quit is not one going ahead.
  const lifetime = appLifetime(app);
  const mainWindow: MainWindowHost = new MainWindowHost({
    preloadPath,
    logger,
    notices,
    onOpened: (opened) => {
      trashGate.watchWindow(opened);
      lifetime.followMainWindow(opened);
      presence.refresh();
    },
  });
  const images = startAppImages(logger, () => notices.tell('thumbnails_unavailable'), {
    mayOpenWindows: () => !lifetime.quitting(),
  });
  const wired = new DisposableStore();
  return {
    environment,
    logger,
    emit,
    notices,
    window: mainWindow,
    presence,
    images,
    lifetime,
    wired,
    started,
  };
}

/**
 * At quit: the watches stop, a delete or an Undo under way is waited for (bounded) and what is
 * held goes on to the system trash, the runtime closes, then the wiring, the images and the log;
 * all of it within {@link QUIT_LIMIT_MS} (quit-steps.ts), after which the app exits regardless.
 */
export function quitInOrder(
  host: DesktopHost,
  log: { readonly logger: RotatingFileLogger } & Disposable,
  clock: Clock = systemClock,
): void {
  const { logger } = host;
  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    void runQuitSteps(quitSteps(host, log), {
      clock,
      limitMs: QUIT_LIMIT_MS,
      logger,
      // Past the limit a step is stuck: app.quit() would run will-quit's other listeners and
      // could wait on it again, app.exit() does not.
      finish: (end) => (end === 'done' ? app.quit() : app.exit(0)),
    });
  });
}

/** The clean-up's steps, in order (each one's failure is logged under its name). */
function quitSteps(
  host: DesktopHost,
  log: { readonly logger: RotatingFileLogger } & Disposable,
): QuitStep[] {
  const { started } = host;
  // Squirrel.Mac takes a downloaded version it is to install as the app ends (bounded): begun
  // first, it unpacks and checks the app while the steps after run, and is waited for last.
  let handover: Promise<void> | undefined;
  return [
    {
      name: 'stopping the watches',
      run: () => {
        started.watch?.dispose();
        host.presence.dispose();
      },
    },
    { name: 'handing the update over', run: () => void (handover = started.updates?.beforeQuit()) },
    // Held images go on to the system trash (an Undo under way was waited for, or is left to
    // the next start), before the core they need closes.
    { name: 'trash at quit', run: () => started.wiring?.beforeQuit(QUIT_WAIT_MS) },
    { name: 'shutdown', run: () => started.runtime?.close() },
    { name: 'releasing the wiring', run: () => host.wired.dispose() },
    { name: 'closing the image engine', run: () => host.images.dispose() },
    { name: 'waiting for the update hand-over', run: () => handover },
    {
      name: 'closing the log',
      run: async () => {
        log.dispose();
        await log.logger.close();
      },
    },
  ];
}
