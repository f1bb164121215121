/**
 * The app's composition root: builds the Electron adapters and the runtime (settings, key vault,
 * demo service, core), wires them with ipc/wire-app.ts (the wiring the end-to-end harness calls
 * too), opens the window, and ties their lifecycles together. No logic lives here. main.ts
 * calls {@link startApp} unless the app was started as the `pictor` command.
 */
import { join } from 'node:path';
import {
  app,
  clipboard,
  dialog,
  nativeTheme,
  net,
  session,
  type BrowserWindow,
  type MessageBoxOptions,
} from 'electron';
import { createCommandLineToolPrompts, createDialogPrompts } from './adapters/dialog-prompts';
import { nodeCommandLineToolFs } from './adapters/command-line-tool-fs';
import { installCommandLineTool } from './app/os/command-line-tool';
import { watchRendererCrashes } from './adapters/renderer-crashes';
import { createElectronFetch } from './adapters/electron-net-fetch';
import { installApplicationMenu } from './adapters/app-menu';
import type { MenuOptions } from './app/os/menu-template';
import { followMainLanguage, mainText, useSystemLanguages } from './app/i18n/main-text';
import type { SettingsProblem } from './core/settings/settings-service';
import { registerAppProtocol, registerPrivilegedSchemes } from './adapters/app-protocol';
import { ElectronStoreKv } from './adapters/electron-store-kv';
import { selectLinuxPasswordStore } from './adapters/linux-secret-service';
import { registerGalleryProtocol } from './adapters/gallery-protocol';
import { createDesktopNotifier } from './adapters/notifications';
import { watchPowerAndNetwork, type PowerAndNetworkWatch } from './adapters/power-and-network';
import { SafeStorageCipher } from './adapters/safe-storage-cipher';
import { createShellActions } from './adapters/shell-actions';
import { createLibraryDialogs } from './adapters/library-dialogs';
import { systemClock } from './adapters/system-clock';
import { createTaskProgressPresenter } from './adapters/task-progress';
import { createAppUpdater } from './adapters/electron-updater';
import { runningMacSignature } from './adapters/codesign';
import type { MacSignature } from './app/updates/update-capability';
import { UpdateService } from './app/updates/update-service';
import { AppRuntime } from './app/app-runtime';
import { appCredentialVerifier } from './adapters/image-engines/app-credential-verifier';
import { appImageEngine, imageRenderer } from './adapters/image-engines/app-image-engine';
import { readTrustAnchors } from './core/content-credentials/trust-anchors';
import { ensurePrivateFolder } from './core/fs/private-files';
import { readAppEnvironment, runtimeOverrides, type AppEnvironment } from './app/app-environment';
import type { PictorCore } from './core/pictor-core';
import { RotatingFileLogger } from './core/logging/rotating-file-logger';
import { createTaskEventLog } from './core/logging/task-event-log';
import { NotificationPolicy } from './app/os/notification-policy';
import { galleryGuard } from './app/os/path-guard';
import { TaskActivity } from './app/os/task-activity';
import { checkExternalUrl } from './app/protocol/external-url';
import { APP_ENTRY_URL, APP_HOST, APP_SCHEME } from './app/protocol/schemes';
import { RendererCrashPolicy } from './app/window/crash-policy';
import { installIpc } from './ipc/install-ipc';
import { createEmitter, mainFrameSenderCheck } from './ipc/ipc-main-bridge';
import { wireApp, type AppWiring, type AppWiringOptions } from './ipc/wire-app';
import { QUIT_WAIT_MS, holdQuitForTrash } from './adapters/quit-hold';
import { DisposableStore, toDisposable, type Disposable } from './ports/disposable';
import type { ShellActions } from './ports/shell-actions';
import type { Logger } from './ports/logger';
import { claimSingleInstance, createMainWindow } from './window';
import { hardenApp } from './adapters/window-guards';
import type { AppNotice } from '../shared/ipc/contract';
import { messageOf } from './core/errors/thrown-value';

/** Starts the desktop app: one instance, its window, its engine. */
export function startApp(): void {
  const APP_ID = 'app.pictor.desktop';
  let mainWindow: BrowserWindow | null = null;

  const environment = readAppEnvironment(process.env);
  if (environment.userDataDir) {
    app.setPath('userData', environment.userDataDir);
    app.setAppLogsPath(join(environment.userDataDir, 'logs'));
  }

  const logger = new RotatingFileLogger({
    dir: app.getPath('logs'),
    minimumLevel: app.isPackaged ? 'info' : 'debug',
  });
  process.on('uncaughtException', (error) =>
    logger.error('uncaught exception', { detail: String(error) }),
  );
  process.on('unhandledRejection', (error) =>
    logger.error('unhandled rejection', { detail: String(error) }),
  );

  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  registerPrivilegedSchemes();
  hardenApp(app, { appUrl: APP_ENTRY_URL, logger });
  if (
    !claimSingleInstance(
      app,
      () => mainWindow,
      () => openWindow(),
    )
  )
    app.quit();
  else {
    // Command-line switches count only before ready: safeStorage reads this one when it starts.
    selectLinuxPasswordStore({
      commandLine: app.commandLine,
      platform: process.platform,
      env: process.env,
      argv: process.argv,
      logger,
    });
    // start()'s own failure too, not only whenReady's: otherwise the app would run on with no
    // window and nothing said (found by the packaged-app boot test).
    void app
      .whenReady()
      .then(start)
      .catch((error: unknown) => failStart(logger, error));
  }

  const cipher = new SafeStorageCipher();
  const userData = app.getPath('userData');
  const emit = createEmitter(() => mainWindow?.webContents ?? null, logger);
  /** The runtime's subscriptions and the IPC registration, released once the runtime closed. */
  const wired = new DisposableStore();
  let runtime: AppRuntime | null = null;
  const notices = new Set<AppNotice>();
  const crashPolicy = new RendererCrashPolicy({ now: () => systemClock.now() });
  let starting: AppRuntime | null = null;
  let appWiring: AppWiring | null = null;
  let watch: PowerAndNetworkWatch | null = null;
  const activity = new TaskActivity(process.platform);
  const progress = createTaskProgressPresenter(() => mainWindow);
  const logTask = createTaskEventLog(logger);

  const notifications = new NotificationPolicy({
    clock: systemClock,
    isEnabled: () => runtime?.settings.get().notifications ?? false,
    isWindowFocused: () => mainWindow?.isFocused() ?? false,
    show: createDesktopNotifier({
      onClick: () => {
        openWindow();
        emit('menu:command', { command: 'show-tasks' });
      },
      onShown: () => logger.info('notifications are shown'),
      onFailed: (error) => {
        logger.warn('notifications cannot be shown', { error });
        notice('notifications_failed');
      },
    }),
  });
  // Chromium's codecs in a hidden sandboxed window, opened by the first image job, closed idle.
  const renderer = imageRenderer(logger);
  const imageEngine = appImageEngine(logger, () => notice('thumbnails_unavailable'), renderer);
  // Content Credentials are verified in the same sandboxed renderer (a worker thread if it cannot).
  const contentCredentials = readTrustAnchors().then((trustAnchors) =>
    appCredentialVerifier({ renderer, trustAnchors, logger }),
  );

  async function start(): Promise<void> {
    // Owner-only before any store, vault or history file is written into it.
    await ensurePrivateFolder(userData);
    await cipher.markReady();
    const started = await AppRuntime.start({
      dataDir: userData,
      defaultGalleryDir: environment.galleryDir ?? join(app.getPath('pictures'), 'Pictor'),
      cipher,
      settingsStore: new ElectronStoreKv({ cwd: userData, name: 'settings' }),
      vaultStore: new ElectronStoreKv({ cwd: userData, name: 'key-vault' }),
      fetch: createElectronFetch(net),
      clock: systemClock,
      logger,
      prompts: createDialogPrompts(dialog, () => mainWindow),
      imageEngine,
      contentCredentials: await contentCredentials,
      ...hostOptions(environment),
    });
    // Closed on quit from here on; published (for windows and menus) only once it is wired.
    starting = started;
    nativeTheme.themeSource = started.settings.get().theme;
    await started.redactKeyIn(logger);
    wired.add(started.settings.onChange((settings) => (nativeTheme.themeSource = settings.theme)));
    registerAppProtocol({ root: join(app.getAppPath(), 'dist', 'renderer'), logger });
    registerGalleryProtocol({ root: () => started.galleryDir(), logger });
    watch = watchPowerAndNetwork({
      onWake: () => started.core.engine.wake(),
      onOnlineChanged: (online) => emit('network:changed', { online }),
    });
    const shell = shellActions(started);
    const signature = await runningMacSignature(app);
    const options = withUpdates(wiringOptions(started, shell), wired, logger, signature);
    const wiring = wired.add(wireApp(options));
    appWiring = wiring;
    const sender = mainFrameSenderCheck(
      () => mainWindow?.webContents ?? null,
      `${APP_SCHEME}://${APP_HOST}`,
    );
    wired.add(toDisposable(installIpc(wiring.handlers, sender, logger)));
    const onCommand: MenuOptions['onCommand'] = (command) => {
      openWindow();
      emit('menu:command', { command });
    };
    const cliTool = commandLineToolAction(logger, () => mainWindow);
    const onOpenLogs = () => void shell.openLogsFolder();
    wired.add(localizedMenu(started, { onCommand, onOpenLogs, ...cliTool }));
    // Last: a second launch or macOS `activate` before this opens no window (openWindow needs
    // the runtime), so no window can load before pictor-app:// and the IPC handlers exist.
    runtime = started;
    openWindow();
    for (const problem of started.settings.takeProblems()) {
      logger.warn('settings problem', { problem: problem.message });
      void dialog.showMessageBox(settingsProblemBox(problem));
    }
  }

  /** The host's share of the core: engine events to the log, notifications and the dock. */
  function observeCore(core: PictorCore): Disposable {
    for (const record of core.history.unfinished())
      progress.show(activity.update({ ...record, downloads: 0 }));
    return core.engine.subscribe(({ record, live }) => {
      logTask(record);
      notifications.observe(record);
      const { localId, status, hold } = record;
      progress.show(activity.update({ localId, status, hold, downloads: live.downloads }));
    });
  }

  function shellActions(started: AppRuntime): ShellActions {
    const root = (): string => started.galleryDir();
    return createShellActions({
      galleryRoot: root,
      isInsideGallery: galleryGuard(root),
      isAllowedExternal: (url) => checkExternalUrl(url).ok,
      logsDir: () => app.getPath('logs'),
      saveDir: () => app.getPath('downloads'),
      fallbackDragIcon: app.isPackaged
        ? join(process.resourcesPath, 'drag-icon.png')
        : join(app.getAppPath(), 'resources', 'icons', '128x128.png'),
      parentWindow: () => mainWindow,
      images: started.imageEngine,
    });
  }

  /** What only the Electron host provides to the app's one wiring (ipc/wire-app.ts). */
  function wiringOptions(started: AppRuntime, shell: ShellActions): AppWiringOptions {
    return {
      runtime: started,
      shell,
      chooseFolder: () => chooseGalleryFolder(mainWindow, started.galleryDir()),
      library: libraryOptions(() => mainWindow),
      copyText: (text) => clipboard.writeText(text),
      info: () => ({
        version: app.getVersion(),
        platform: process.platform,
        online: watch?.online() ?? true,
        notices: takeNotices(),
      }),
      emit,
      observeCore,
    };
  }

  function openWindow(): void {
    if (mainWindow && !mainWindow.isDestroyed()) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.show();
      mainWindow.focus();
      return;
    }
    if (!runtime) return;
    const settings = runtime.settings;
    mainWindow = createMainWindow({
      preloadPath: join(import.meta.dirname, 'preload.cjs'),
      appUrl: APP_ENTRY_URL,
      bounds: settings.getWindowBounds(),
      isPackaged: app.isPackaged,
      onBoundsChanged: (state) => settings.setWindowBounds(state),
      logger,
    });
    watchRendererCrashes(mainWindow, {
      policy: crashPolicy,
      logger,
      dialog,
      onRecovered: () => notices.add('window_recovered'),
      quit: () => app.quit(),
    });
    mainWindow.on('closed', () => (mainWindow = null));
    trashGate.watchWindow(mainWindow);
    progress.refresh();
  }

  /** Tells the page now, and keeps it for the next `app:getInfo` in case no page listened. */
  function notice(code: AppNotice): void {
    notices.add(code);
    emit('app:notice', { notice: code });
  }

  /** The page's one-time notices (see AppInfo.notices): each is handed out once. */
  function takeNotices(): AppNotice[] {
    const taken = [...notices];
    notices.clear();
    return taken;
  }

  app.on('activate', () => openWindow());

  // The engine keeps working with no window open; on macOS the app stays until Quit.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  const trashGate = holdQuitForTrash(app, () => appWiring, emit);

  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    void (async () => {
      watch?.dispose();
      notifications.dispose();
      // Held images go on to the system trash (an Undo under way was waited for, or is left
      // to the next start), before the core they need closes.
      await appWiring
        ?.beforeQuit(QUIT_WAIT_MS)
        .catch((error: unknown) => logger.error('trash at quit failed', { detail: String(error) }));
      await (runtime ?? starting)
        ?.close()
        .catch((error: unknown) => logger.error('shutdown failed', { detail: String(error) }));
      wired.dispose();
      await (await contentCredentials).dispose().catch(() => undefined);
      await imageEngine.dispose().catch(() => undefined);
      await logger.close();
      app.quit();
    })();
  });
}

function failStart(logger: Logger, error: unknown): void {
  logger.error('start-up failed', { detail: String(error) });
  dialog.showErrorBox(...startFailure(error));
  app.exit(1);
}

/**
 * The wiring's options with the app's own updates (app/updates on electron-updater), following
 * the user's choice in Settings; the first check comes a little after start-up, then daily.
 */
function withUpdates(
  options: AppWiringOptions,
  wired: DisposableStore,
  logger: Logger,
  macSignature: MacSignature | undefined,
): AppWiringOptions {
  const { settings } = options.runtime;
  const updates = new UpdateService({
    updater: createAppUpdater(
      app,
      logger,
      {
        // electron-updater's own session (its downloads use the same): no cache, no cookies of the
        // service's, the system's proxy settings.
        fetch: (url, init) =>
          session.fromPartition('electron-updater', { cache: false }).fetch(url, init),
        clock: systemClock,
      },
      macSignature,
    ),
    clock: systemClock,
    logger,
    mode: () => settings.get().updateMode,
  });
  wired.add(updates);
  wired.add(settings.onChange(() => updates.modeChanged()));
  updates.start();
  return { ...options, updates };
}

/** The main process's folder dialog, opened at the library itself; `null` when cancelled. */
async function chooseGalleryFolder(
  window: BrowserWindow | null,
  defaultPath: string,
): Promise<string | null> {
  const options = {
    title: mainText('dialog.galleryFolder'),
    buttonLabel: mainText('dialog.chooseFolder'),
    // Electron 43+ opens in Downloads unless told where: start at the library itself.
    defaultPath,
    properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
  };
  const result = window
    ? await dialog.showOpenDialog(window, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** The library archive's dialogs (ipc/library-handlers.ts) and the version its exports record. */
function libraryOptions(window: () => BrowserWindow | null) {
  const dialogs = createLibraryDialogs({ dialog, window, saveDir: () => app.getPath('downloads') });
  return { dialogs, version: app.getVersion() };
}

/** The environment's overrides and the app's version (written into every saved image). */
function hostOptions(environment: AppEnvironment) {
  return { ...runtimeOverrides(environment), appVersion: app.getVersion() };
}

/** The system's languages, most wanted first (the app's locale first, as the page reads them). */
function systemLanguages(): string[] {
  return [app.getLocale(), ...app.getPreferredSystemLanguages()].filter(Boolean);
}

/**
 * The application menu in the main process's language (app/i18n), which follows the
 * `language` setting: a change rebuilds the menu, and later notifications and dialogs use it.
 */
function localizedMenu(
  started: AppRuntime,
  actions: Pick<MenuOptions, 'onCommand' | 'onOpenLogs' | 'onInstallCommandLineTool'>,
): Disposable {
  useSystemLanguages(systemLanguages);
  const install = () =>
    installApplicationMenu({
      platform: process.platform,
      appName: app.name,
      packaged: app.isPackaged,
      ...actions,
    });
  const following = followMainLanguage(started.settings, install);
  install();
  return following;
}

/** The packaged macOS app's "Install Command Line Tool…": /usr/local/bin/pictor, if agreed. */
function commandLineToolAction(
  logger: Logger,
  window: () => BrowserWindow | null,
): Pick<MenuOptions, 'onInstallCommandLineTool'> {
  if (process.platform !== 'darwin' || !app.isPackaged) return {};
  const install = () =>
    installCommandLineTool({
      fs: nodeCommandLineToolFs,
      prompts: createCommandLineToolPrompts(dialog, window),
      target: join(process.resourcesPath, 'bin', 'pictor'),
    });
  return {
    onInstallCommandLineTool: () =>
      void install().then(
        (outcome) => logger.info('command line tool', { outcome: outcome.kind }),
        (error: unknown) => logger.warn('command line tool failed', { detail: messageOf(error) }),
      ),
  };
}

/** A problem found in the settings file, in the current language. */
function settingsProblemBox(problem: SettingsProblem): MessageBoxOptions {
  const detail = problem.sentences.map((said) => mainText(said.key, said.params)).join('\n');
  return { type: 'warning', message: mainText('app.settingsProblem'), detail };
}

/** The error box's title and text when start-up failed, in the system's language. */
function startFailure(error: unknown): [string, string] {
  useSystemLanguages(systemLanguages);
  return [
    mainText('app.startFailed'),
    mainText('app.startFailedDetail', { reason: messageOf(error), folder: app.getPath('logs') }),
  ];
}
