/**
 * Start-up, once the app is ready: the runtime over Electron's adapters (an owner-only data
 * folder, safeStorage, electron-store, `net`), then the desktop around it (theme, the key kept
 * out of the log, both protocols, power and network, the app's one wiring, IPC behind the sender
 * check, the menu), and only then the window, so none can load before pictor-app:// and the
 * handlers exist. The app's updates start once that window shows (late-updates.ts): on macOS
 * they first read the app's signature, which the window does not wait for.
 */
import { join } from 'node:path';
import { app, clipboard, dialog, nativeTheme, net, session } from 'electron';
import { electronSystemTrash } from '../adapters/system-trash';
import { registerAppProtocol } from '../adapters/app-protocol';
import { runningMacSignature } from '../adapters/codesign';
import { createCapPrompts, createDialogPrompts } from '../adapters/dialog-prompts';
import { createElectronFetch } from '../adapters/electron-net-fetch';
import { ElectronStoreKv } from '../adapters/electron-store-kv';
import { registerGalleryProtocol } from '../adapters/gallery-protocol';
import { createInputDialogs } from '../adapters/input-dialogs';
import { watchPowerAndNetwork } from '../adapters/power-and-network';
import { SafeStorageCipher } from '../adapters/safe-storage-cipher';
import { createShellActions } from '../adapters/shell-actions';
import { systemClock } from '../adapters/system-clock';
import { runtimeOverrides } from '../app/app-environment';
import { AppRuntime } from '../app/app-runtime';
import type { MenuOptions } from '../app/os/menu-template';
import { galleryGuard } from '../app/os/path-guard';
import { checkExternalUrl } from '../app/protocol/external-url';
import { APP_HOST, APP_SCHEME } from '../app/protocol/schemes';
import { ensurePrivateFolder } from '../core/fs';
import { installIpc } from '../ipc/install-ipc';
import { mainFrameSenderCheck } from '../ipc/ipc-main-bridge';
import { wireApp, type AppWiringOptions } from '../ipc/wire-app';
import { toDisposable } from '../ports/disposable';
import type { ShellActions } from '../ports/shell-actions';
import { chooseGalleryFolder, libraryOptions, showSettingsProblems } from './app-dialogs';
import { commandLineToolAction, localizedMenu } from './app-menu';
import { startAppUpdates } from './app-updates';
import type { DesktopHost } from './desktop-host';
import { lateUpdates, type LateUpdates } from './late-updates';

/** Starts the runtime, wires the desktop around it, then opens the window. */
export async function startDesktop(host: DesktopHost): Promise<void> {
  const { runtime, cipherReady } = await openRuntime(host);
  // Closed on quit from here on; windows open only once it is wired.
  host.started.runtime = runtime;
  const updates = lateUpdates();
  await wireDesktop(host, runtime, updates);
  host.window.ready(runtime.settings);
  host.window.open();
  showSettingsProblems(runtime.settings.takeProblems(), host.logger);
  // Read without its lock at the start (another process held it): the read holding it comes later.
  void runtime.settings
    .whenHeldRead()
    .then(() => showSettingsProblems(runtime.settings.takeProblems(), host.logger));
  tellOfNewerTasks(host, runtime);
  // The keychain's first answer may wait on a prompt: the window is already open, the keys'
  // states say "not ready" meanwhile, and what needs a key waits for it (KeyVault.readKey).
  void cipherReady
    .then(() => runtime.keys.verify())
    .catch((error: unknown) => host.logger.warn('keys not verified', { detail: String(error) }));
  // Not awaited: start-up is done; updates failing to start is no failed start.
  void startUpdates(host, runtime, updates).catch((error: unknown) =>
    host.logger.warn('updates did not start', { detail: String(error) }),
  );
}

/**
 * Tasks a newer Pictor wrote (a status or a service this version does not know) are not shown
 * here and are never written over: the page says they are there. Counted in the history worker.
 */
function tellOfNewerTasks({ notices, logger }: DesktopHost, runtime: AppRuntime): void {
  void runtime.core.libraryReads.newerTasks().then(
    (count) => {
      if (count === 0) return;
      logger.info('tasks a newer Pictor wrote are kept, not shown', { count });
      notices.tell('newer_tasks_kept');
    },
    (error: unknown) => logger.warn('newer tasks not counted', { detail: String(error) }),
  );
}

/** The app's updates, after the first window showed: the macOS signature read first, if at all. */
async function startUpdates(host: DesktopHost, runtime: AppRuntime, late: LateUpdates) {
  await host.window.shown();
  const signature = await runningMacSignature(app);
  // A quit under way disposed the wiring: nothing starts into it.
  if (host.lifetime.quitting()) return;
  const { updates, owned } = startAppUpdates(runtime.settings, host.logger, signature);
  host.wired.add(owned);
  host.started.updates = updates;
  late.attach(updates);
}

/**
 * The runtime, and the cipher's readiness: safeStorage is asked now but not waited for, so a
 * keychain prompt nobody has answered yet never keeps the window from opening.
 */
async function openRuntime({ environment, logger, images, window }: DesktopHost) {
  const userData = app.getPath('userData');
  // Owner-only before any store, vault or history file is written into it.
  await ensurePrivateFolder(userData);
  const cipher = new SafeStorageCipher();
  const cipherReady = cipher.markReady();
  const runtime = await AppRuntime.start({
    dataDir: userData,
    defaultGalleryDir: environment.galleryDir ?? join(app.getPath('pictures'), 'Pictor'),
    cipher,
    settingsStore: new ElectronStoreKv({ cwd: userData, name: 'settings' }),
    serviceVaultStore: (provider) =>
      new ElectronStoreKv({ cwd: userData, name: `key-vault-${provider}` }),
    earlierVaultStore: new ElectronStoreKv({ cwd: userData, name: 'key-vault' }),
    fetch: createElectronFetch(net, session),
    // Chromium's sockets cannot be judged before they write: this computer's plain-http servers
    // (and https ones at a loopback literal or localhost) are reached through the core's judged
    // pinned transport (core/download/gated-transports.ts).
    pinLocalServers: true,
    clock: systemClock,
    logger,
    prompts: createDialogPrompts(dialog, () => window.current()),
    userGestures: window.gestures,
    imageEngine: images.engine,
    contentCredentials: await images.credentials,
    systemTrash: electronSystemTrash,
    ...runtimeOverrides(environment),
    appVersion: app.getVersion(),
  });
  return { runtime, cipherReady };
}

async function wireDesktop(
  host: DesktopHost,
  runtime: AppRuntime,
  updates: LateUpdates,
): Promise<void> {
  const { logger, emit, wired, started } = host;
  nativeTheme.themeSource = runtime.settings.get().theme;
  // Subscribed now; the keys' text is known (and kept out of the log) once the cipher answers,
  // before a request could have been sent with one. The log holds its lines until then; when the
  // keys cannot be read, it writes them as the patterns leave them.
  void runtime.redactKeyIn(logger).catch((error: unknown) => {
    logger.releaseHeld();
    logger.warn('key redaction not set', { detail: String(error) });
  });
  wired.add(runtime.settings.onDidChange((settings) => (nativeTheme.themeSource = settings.theme)));
  registerAppProtocol({ root: join(app.getAppPath(), 'dist', 'renderer'), logger });
  registerGalleryProtocol({
    root: () => runtime.galleryDir(),
    heldKeys: () => runtime.keptIdPage.heldKeys(),
    logger,
  });
  started.watch = watchPowerAndNetwork({
    onWake: () => runtime.core.engine.wake(),
    onOnlineChanged: (online) => emit('network:changed', { online }),
  });
  const shell = shellActions(host, runtime);
  const options = { ...wiringOptions(host, runtime, shell), updates: updates.control };
  const wiring = wired.add(wireApp(options));
  started.wiring = wiring;
  const sender = mainFrameSenderCheck(
    () => host.window.current()?.webContents ?? null,
    `${APP_SCHEME}://${APP_HOST}`,
  );
  wired.add(toDisposable(installIpc(wiring.handlers, sender, logger)));
  wired.add(localizedMenu(runtime, menuActions(host, shell)));
}

/** What only the Electron host provides to the app's one wiring (ipc/wire-app.ts). */
function wiringOptions(
  host: DesktopHost,
  runtime: AppRuntime,
  shell: ShellActions,
): AppWiringOptions {
  const window = () => host.window.current();
  const capPrompts = createCapPrompts(dialog, window);
  return {
    runtime,
    shell,
    chooseFolder: () => chooseGalleryFolder(window(), runtime.galleryDir()),
    library: libraryOptions(window),
    inputDialogs: createInputDialogs({ dialog, window }),
    capPrompts,
    overCapPrompts: capPrompts,
    copyText: (text) => clipboard.writeText(text),
    info: () => ({
      version: app.getVersion(),
      platform: process.platform,
      online: host.started.watch?.online() ?? true,
      notices: host.notices.take(),
    }),
    emit: host.emit,
    logger: host.logger,
    observeCore: (core) => host.presence.observe(core),
  };
}

function shellActions(host: DesktopHost, runtime: AppRuntime): ShellActions {
  const root = (): string => runtime.galleryDir();
  return createShellActions({
    galleryRoot: root,
    isInsideGallery: galleryGuard(root),
    isAllowedExternal: (url) => checkExternalUrl(url).ok,
    logsDir: () => app.getPath('logs'),
    saveDir: () => app.getPath('downloads'),
    fallbackDragIcon: app.isPackaged
      ? join(process.resourcesPath, 'drag-icon.png')
      : join(app.getAppPath(), 'resources', 'icons', '128x128.png'),
    parentWindow: () => host.window.current(),
    images: runtime.imageEngine,
  });
}

/** The menu's commands go to the window (opened first), its logs item to the logs folder. */
function menuActions(
  host: DesktopHost,
  shell: ShellActions,
): Pick<MenuOptions, 'onCommand' | 'onOpenLogs' | 'onInstallCommandLineTool'> {
  return {
    onCommand: (command) => {
      host.window.open();
      host.emit('menu:command', { command });
    },
    onOpenLogs: () => void shell.openLogsFolder(),
    ...commandLineToolAction(host.logger, () => host.window.current()),
  };
}
