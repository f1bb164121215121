/**
 * The app's composition root: one instance, its log, its host parts (electron/host: the window,
 * the tasks on the desktop, the images, the start-up that builds the runtime over Electron's
 * adapters and wires it with ipc/wire-app.ts, the wiring the end-to-end harness calls too), and
 * the order things end in at quit. No logic lives here. main.ts calls {@link startApp} unless the
 * app was started as the `pictor` command.
 */
import { join } from 'node:path';
import { app } from 'electron';
import { registerPrivilegedSchemes } from './adapters/app-protocol';
import { chooseKeyStore } from './adapters/linux-secret-service';
import { hardenApp } from './adapters/window-guards';
import { readAppEnvironment } from './app/app-environment';
import { APP_ENTRY_URL } from './app/protocol/schemes';
import { failStart } from './host/app-dialogs';
import { openAppLog } from './host/app-log';
import { desktopHost, quitInOrder } from './host/desktop-host';
import { startDesktop } from './host/desktop-start';
import { claimSingleInstance } from './window';

const APP_ID = 'app.pictor.desktop';

/** Starts the desktop app: one instance, its window, its engine. */
export function startApp(): void {
  const environment = readAppEnvironment(process.env);
  if (environment.userDataDir) {
    app.setPath('userData', environment.userDataDir);
    app.setAppLogsPath(join(environment.userDataDir, 'logs'));
  }
  const log = openAppLog();
  const { logger } = log;
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  registerPrivilegedSchemes();
  hardenApp(app, { appUrl: APP_ENTRY_URL, logger });
  const host = desktopHost(environment, logger, join(import.meta.dirname, 'preload.cjs'));
  const { window } = host;
  if (
    !claimSingleInstance(
      app,
      () => window.current(),
      () => window.open(),
    )
  )
    app.quit();
  else {
    // Command-line switches count only before ready: safeStorage reads this one when it starts.
    // The same call as the `pictor` command's (cli-host.ts): self-test reports this store.
    chooseKeyStore(app, logger);
    // startDesktop's own failure too, not only whenReady's: otherwise the app would run on with
    // no window and nothing said (found by the packaged-app boot test).
    void app
      .whenReady()
      .then(() => startDesktop(host))
      .catch((error: unknown) => {
        // The app's last words reach the file, whether or not its keys were read.
        logger.releaseHeld();
        failStart(logger, error);
      });
  }
  app.on('activate', () => window.open());
  // The main window's close quits on Windows and Linux (host/app-lifetime.ts); on macOS the app,
  // and its engine, stay until Quit. Helper windows never decide.
  quitInOrder(host, log);
}
