/**
 * The app's one wiring: every IPC handler, built from the runtime, and the runtime's and the
 * engine's events sent to the page. The Electron composition root (app-main.ts) and the
 * end-to-end harness (tests/e2e/harness/node-main.ts) both call {@link wireApp}, so the journeys
 * test what ships. Electron-free: the host passes its OS actions, dialog, clipboard and emitter.
 *
 * The handlers read `runtime.core` at each call, so nothing is rebound when moving the gallery
 * replaces the core; only the engine's subscription moves to the new core. Every subscription
 * made here is released by the returned {@link AppWiring.dispose}.
 */
import { join } from 'node:path';
import type { KeyStatus } from '../../shared/domain/key-status';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import type { AppInfo } from '../../shared/ipc/contract';
import type { AppCredentials } from '../core/app-credentials';
import type { GalleryMoveHooks } from '../core/gallery/relocate';
import type { KeyVault } from '../core/key-vault/key-vault';
import type { PictorCore } from '../core/pictor-core';
import type { ConnectionTestDeps } from '../core/service/connection-test';
import type { SettingsService } from '../core/settings/settings-service';
import type { Clock } from '../ports/clock';
import { DisposableStore, toDisposable, type Disposable } from '../ports/disposable';
import type { ShellActions } from '../ports/shell-actions';
import { appHandlers } from './app-handlers';
import { TrashJournal, TRASH_JOURNAL_DIR } from '../core/trash/trash-journal';
import { TrashOperations } from '../core/trash/trash-operations';
import { galleryFolderHandlers } from './gallery-folder-handlers';
import { galleryHandlers, systemTrash } from './gallery-handlers';
import type { Emit, IpcHandlers } from './ipc-main-bridge';
import { keyHandlers } from './key-handlers';
import { libraryHandlers } from './library-handlers';
import type { LibraryDialogs } from '../ports/library-dialogs';
import { serviceHandlers } from './service-handlers';
import { settingsHandlers } from './settings-handlers';
import { taskHandlers, taskItem } from './task-handlers';
import { noUpdates, updateHandlers, type UpdatesControl } from './update-handlers';

/** What the wiring uses of the AppRuntime (core/app-runtime.ts). */
export interface WiredRuntime {
  /** The core now: moving the gallery replaces it. */
  readonly core: PictorCore;
  readonly settings: Pick<SettingsService, 'get' | 'onChange'>;
  readonly vault: Pick<KeyVault, 'status' | 'clear' | 'onChange'>;
  readonly credentials: ConnectionTestDeps['credentials'] &
    Pick<AppCredentials, 'onDemoChange' | 'isDemo'>;
  readonly clock: Pick<Clock, 'now'>;
  /** The data folder: the trash journal lives there. */
  readonly dataDir: string;
  galleryDir(): string;
  onCoreReplaced(listener: (core: PictorCore) => void): Disposable;
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  setKey(key: string, allowWeakStorage: boolean): Promise<KeyStatus>;
  moveGalleryTo(folder: string, hooks?: GalleryMoveHooks): Promise<unknown>;
  /** Makes a folder the dialog returned the gallery as it is (AppRuntime.openGalleryAt). */
  openGalleryAt(folder: string): Promise<{ imported: number }>;
}

/** What only the host knows for `app:getInfo` (the runtime adds the demo flag and the gallery). */
export type HostInfo = Omit<AppInfo, 'demo' | 'galleryDir'>;

export interface AppWiringOptions {
  readonly runtime: WiredRuntime;
  readonly shell: ShellActions;
  /** The main process's own folder dialog, for `galleryFolder:pick` and the exports. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly copyText: (text: string) => void;
  /**
   * The main process's own save and open dialogs for `library:export` / `library:import`, and the
   * version written into exports (`info` is not asked: it hands out the page's one-time notices).
   */
  readonly library?: { readonly dialogs: LibraryDialogs; readonly version: string };
  readonly info: () => HostInfo;
  readonly emit: Emit;
  /**
   * The host's own use of each core, besides the page (the app: its task log, notifications and
   * dock progress). Called for the first core and for each one that replaces it, before its
   * engine resumes; what it returns is disposed when that core is replaced or the wiring is.
   */
  readonly observeCore?: (core: PictorCore) => Disposable | undefined;
  /** The app's own updates (core/updates); absent in the harnesses, which then say "unavailable". */
  readonly updates?: UpdatesControl;
}

export interface AppWiring extends Disposable {
  /** Every request channel's handler; each reaches the current core when it is called. */
  readonly handlers: IpcHandlers;
  /** Deletes and removals with Undo, journaled (core/trash). */
  readonly trash: TrashOperations;
  /**
   * Before the app quits: waits (at most `ms`) for a delete or an Undo under way, telling the
   * page so, then sends what is held on. What is still under way then finishes at the next start.
   */
  beforeQuit(ms: number): Promise<void>;
}

/** Every IPC handler of the app, one file per channel prefix, over the runtime's current core. */
function createIpcHandlers(options: AppWiringOptions, trash: TrashOperations): IpcHandlers {
  const { runtime, shell, emit } = options;
  const core = () => runtime.core;
  return {
    ...appHandlers({
      shell,
      copyText: options.copyText,
      info: () => ({
        ...options.info(),
        galleryDir: runtime.galleryDir(),
        demo: runtime.credentials.isDemo(),
      }),
    }),
    ...taskHandlers({ core, emit, chooseFolder: options.chooseFolder, trash }),
    ...galleryHandlers({ core, shell, chooseExportFolder: options.chooseFolder, emit, trash }),
    ...settingsHandlers({
      get: () => runtime.settings.get(),
      update: (patch) => runtime.updateSettings(patch),
    }),
    ...keyHandlers({
      vault: runtime.vault,
      setKey: (key, allowWeakStorage) => runtime.setKey(key, allowWeakStorage),
    }),
    ...galleryFolderHandlers({
      runtime: {
        clock: runtime.clock,
        galleryDir: () => runtime.galleryDir(),
        // Images held for Undo go on to the system trash before the library changes folder.
        moveGalleryTo: async (folder, hooks) => {
          await trash.finish();
          return runtime.moveGalleryTo(folder, hooks);
        },
        openGalleryAt: async (folder) => {
          await trash.finish();
          return runtime.openGalleryAt(folder);
        },
      },
      chooseFolder: options.chooseFolder,
      emit,
    }),
    ...serviceHandlers({
      credentials: runtime.credentials,
      client: () => runtime.core.client,
      savedBaseUrl: () => runtime.settings.get().baseUrl,
    }),
    ...libraryHandlers({
      core,
      ...(options.library ? { dialogs: options.library.dialogs } : {}),
      version: () => options.library?.version ?? 'unknown',
      emit,
    }),
    ...updateHandlers(options.updates ?? noUpdates),
  };
}

/**
 * Wires the app around a started runtime: key, settings and demo changes and the engine's task
 * updates go to the page, every unfinished task resumes, and a new core (the gallery moved) is
 * wired the same way, the old one's subscriptions released. Dispose to release everything.
 */
export function wireApp(options: AppWiringOptions): AppWiring {
  const { runtime, emit } = options;
  const wiring = new DisposableStore();
  wiring.add(runtime.vault.onChange((status) => emit('key:changed', status)));
  wiring.add(runtime.settings.onChange((settings) => emit('settings:changed', settings)));
  wiring.add(runtime.credentials.onDemoChange((demo) => emit('app:demoChanged', { demo })));
  wiring.add((options.updates ?? noUpdates).onChange((state) => emit('updates:changed', state)));
  // Deleted images and removed tasks wait here for Undo; what a quit, crash or kill left under
  // way is finished first (journal replay), for each gallery the app opens.
  const trash = new TrashOperations({
    journal: new TrashJournal(join(runtime.dataDir, TRASH_JOURNAL_DIR)),
    core: () => runtime.core,
    sendToSystemTrash: systemTrash(options.shell),
  });
  const replay = () => void trash.replay().catch(() => undefined);
  replay();
  wiring.add(trash.onProgress((progress) => emit('trash:progress', progress)));
  let current = wireCore(runtime.core, options);
  wiring.add(
    runtime.onCoreReplaced((core) => {
      replay();
      current.dispose();
      current = wireCore(core, options);
      emit('gallery:changed', { reason: 'moved' });
    }),
  );
  wiring.add(toDisposable(() => current.dispose()));
  return {
    handlers: createIpcHandlers(options, trash),
    trash,
    beforeQuit: async (ms) => {
      const waitingFor = trash.inFlight();
      if (waitingFor) emit('app:quitting', { waitingFor });
      await trash.settle(ms);
      await trash.empty();
    },
    dispose: () => wiring.dispose(),
  };
}

/** One core: the host's observer, then its task updates to the page; then everything resumes. */
function wireCore(core: PictorCore, { emit, observeCore }: AppWiringOptions): Disposable {
  const store = new DisposableStore();
  const observed = observeCore?.(core);
  if (observed) store.add(observed);
  store.add(
    core.engine.subscribe(({ record }) => emit('task:updated', taskItem(core.engine, record))),
  );
  core.engine.start({ resume: true });
  return store;
}
