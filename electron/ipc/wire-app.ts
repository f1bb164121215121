/**
 * The app's one wiring: every IPC handler, built from the runtime, and the runtime's and the
 * engine's events sent to the page. The Electron host's start-up (host/desktop-start.ts) and the
 * end-to-end harness (tests/e2e/harness/node-main.ts) both call {@link wireApp}, so the journeys
 * test what ships. Electron-free: the host passes its OS actions, dialog, clipboard and emitter.
 *
 * The runtime has one core for the life of the process (moving the library changes its folder in
 * place), so every handler and subscription is bound to it once, and its engine is started once,
 * here. Every subscription made here is released by the returned {@link AppWiring.dispose}.
 */
import type { KeyStatus } from '../../shared/domain/key-status';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import type { AppInfo } from '../../shared/ipc/contract';
import type { AppCredentials } from '../app/app-credentials';
import type { CredentialsProvider } from '../ports/credentials';
import type { GalleryMoveHooks, OpenedLibrary, RelocateResult } from '../core/library';
import type { KeySave, SaveKeyOptions, ServiceKeys } from '../core/key-vault';
import { DEFAULT_PROVIDER, type ProviderId } from '../../shared/domain/providers';
import type { PictorCore } from '../core/pictor-core';
import type { ConnectionTestDeps, KeyCheckRecorder } from '../core/service';
import type { SettingsService } from '../core/settings';
import type { Clock } from '../ports/clock';
import { DisposableStore, type Disposable } from '../ports/disposable';
import { silentLogger, type Logger } from '../ports/logger';
import type { ShellActions } from '../ports/shell-actions';
import { appHandlers } from './app-handlers';
import { compareHandlers } from './compare-handlers';
import { inputHandlers } from './input-handlers';
import { stackHandlers } from './stack-handlers';
import type { InputDialogs } from '../ports/input-dialogs';
import { GALLERY_BASE } from '../../shared/ipc/api';
import { costHandlers } from './cost-handlers';
import { replaceFileBeside } from '../core/fs';
import type { TrashOperations } from '../core/trash';
import { libraryHandlers } from './library-handlers';
import { galleryHandlers } from './gallery-handlers';
import type { Emit, HandlersOf, IpcHandlers } from './ipc-main-bridge';
import { keyHandlers } from './key-handlers';
import { archiveHandlers } from './archive-handlers';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { CapPrompts, OverCapPrompts } from '../ports/user-prompts';
import { followSubmits } from '../core/engine';
import { templateHandlers } from './template-handlers';
import { workflowHandlers } from './workflow-handlers';
import { modelOptionsHandlers } from './model-options-handlers';
import { serviceHandlers } from './service-handlers';
import { settingsHandlers } from './settings-handlers';
import { taskCancelHandlers } from './task-cancel-handlers';
import { commandCore, taskCommandHandlers } from './task-command-handlers';
import { taskHandlers } from './task-handlers';
import { triageHandlers } from './triage-handlers';
import { promptHandlers } from './prompt-handlers';
import { TaskUpdates, type TaskChangeSink } from './task-updates';
import { isUnfinished } from '../../shared/domain/task-record';
import { typedAddress } from '../../shared/domain/submit-target';
import { OpenViews } from './open-views';
import { noUpdates, updateHandlers, type UpdatesControl } from './update-handlers';

/** What the wiring uses of the AppRuntime (app/app-runtime.ts). */
export interface WiredRuntime {
  /** The one core: moving the library changes its folder, never the core. */
  readonly core: PictorCore;
  readonly settings: Pick<SettingsService, 'get' | 'onDidChange'>;
  readonly keys: Pick<ServiceKeys, 'statuses' | 'onChange'>;
  readonly credentials: ConnectionTestDeps['credentials'] &
    CredentialsProvider &
    Pick<AppCredentials, 'onDemoChange' | 'isDemo' | 'storedKeyOf' | 'heldKeys'> &
    Pick<AppCredentials, 'addressOf' | 'endpointOf'>;
  readonly clock: Clock;
  /** What the page receives of tasks kept under a key-carrying id (kept-id-page.ts). */
  readonly keptIdPage: { answers<H extends object>(handlers: H): H; emitter(emit: Emit): Emit };
  /** The data folder: the trash journal lives there. */
  readonly dataDir: string;
  galleryDir(): string;
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  saveKey(key: string, options: SaveKeyOptions, provider: ProviderId): Promise<KeySave>;
  /** Keeps what "Test connection" said of a stored key with it. */
  recordKeyCheck: KeyCheckRecorder;
  clearKey(provider: ProviderId): Promise<KeyStatus>;
  moveGalleryTo(folder: string, hooks?: GalleryMoveHooks): Promise<RelocateResult>;
  /** Makes a folder the dialog returned the gallery as it is (AppRuntime.openGalleryAt). */
  openGalleryAt(folder: string): Promise<OpenedLibrary>;
}

/** What only the host knows for `app:getInfo` (the runtime adds the demo flag and the gallery). */
export type HostInfo = Omit<AppInfo, 'demo' | 'galleryDir'>;

export interface AppWiringOptions {
  readonly runtime: WiredRuntime;
  readonly shell: ShellActions;
  /** The main process's own folder dialog, for `library:pick` and the exports. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly copyText: (text: string) => void;
  /**
   * The main process's own save and open dialogs for `archive:export` / `archive:import`, and the
   * version written into exports (`info` is not asked: it hands out the page's one-time notices).
   */
  readonly library?: { readonly dialogs: LibraryDialogs; readonly version: string };
  /** The main process's own open dialog for an input image (`inputs:pickFile`); absent: none. */
  readonly inputDialogs?: InputDialogs;
  /**
   * Where the page loads gallery files from (`window.pictor.galleryBase`), for the addresses of
   * stored inputs; default the gallery scheme's.
   */
  readonly galleryBase?: string;
  readonly info: () => HostInfo;
  readonly emit: Emit;
  /** Where a task change that could not be sent is logged; absent: nowhere (the harnesses). */
  readonly logger?: Logger;
  /**
   * The host's own use of the core, besides the page (the app: its task log, notifications and
   * dock progress). Called once, before the engine starts; what it returns is disposed with the
   * wiring.
   */
  readonly observeCore?: (core: PictorCore) => Disposable | undefined;
  /**
   * Main's own question before a hard spending cap is raised or removed; absent in the
   * harnesses, where a hard cap is then only ever set or lowered.
   */
  readonly capPrompts?: CapPrompts;
  /**
   * Main's own question before a template run's tasks (or a template batch's Rerun) pass a hard
   * spending cap, this once; absent in the harnesses that do not ask, where such a run is refused.
   */
  readonly overCapPrompts?: OverCapPrompts;
  /** The app's own updates (app/updates); absent in the harnesses, which then say "unavailable". */
  readonly updates?: UpdatesControl;
}

export interface AppWiring extends Disposable {
  /** Every request channel's handler, over the runtime's one core. */
  readonly handlers: IpcHandlers;
  /** Deletes and removals with Undo, journaled (core/trash). */
  readonly trash: TrashOperations;
  /**
   * Before the app quits: waits (at most `ms`) for a delete or an Undo under way, telling the
   * page so, then sends what is held on. What is still under way then finishes at the next start.
   */
  beforeQuit(ms: number): Promise<void>;
}

/**
 * A change of the library's folder, after which the page is told to read the gallery again. (The
 * trash acts around the change in the core: it follows every change of the folder, see
 * TrashOperations.)
 */
function announcingMove(emit: Emit) {
  return async <T>(change: () => Promise<T>): Promise<T> => {
    try {
      return await change();
    } finally {
      emit('gallery:changed', { reason: 'moved' });
    }
  };
}

/** Every IPC handler of the app, one file per channel prefix, over the runtime's one core. */
function createIpcHandlers(
  options: AppWiringOptions,
  trash: TrashOperations,
  changes: TaskChangeSink & { flush(): void },
  views: OpenViews,
): IpcHandlers {
  const { runtime, shell, emit, chooseFolder } = options;
  const { core } = runtime;
  const changeFolder = announcingMove(emit);
  return {
    ...appHandlers({
      shell,
      copyText: options.copyText,
      info: () => ({
        ...options.info(),
        galleryDir: runtime.galleryDir(),
        demo: runtime.credentials.isDemo(),
        unreachable: runtime.core.serviceReach.unreachable(),
      }),
    }),
    ...taskChannels(options, trash, changes, views),
    ...galleryHandlers({ core, shell, chooseExportFolder: chooseFolder, emit, trash, views }),
    ...settingsHandlers({
      get: () => runtime.settings.get(),
      update: (patch) => runtime.updateSettings(patch),
    }),
    // The runtime stores, checks and removes keys (AppRuntime.setKey, saveKey, clearKey).
    ...keyHandlers(runtime),
    ...libraryHandlers({
      runtime: {
        galleryDir: () => runtime.galleryDir(),
        moveGalleryTo: (folder, hooks) => changeFolder(() => runtime.moveGalleryTo(folder, hooks)),
        openGalleryAt: (folder) => changeFolder(() => runtime.openGalleryAt(folder)),
      },
      choices: core.folderChoices,
      operations: core.operations,
      chooseFolder,
      emit,
    }),
    ...serviceHandlers({
      credentials: runtime.credentials,
      client: core.client,
      savedBaseUrl: () => runtime.credentials.addressOf(DEFAULT_PROVIDER) ?? '',
      addressOf: (provider) => runtime.credentials.addressOf(provider),
      now: () => runtime.clock.now(),
      recordCheck: (credentials, outcome) => runtime.recordKeyCheck(credentials, outcome),
    }),
    ...archiveHandlers({
      operations: core.operations,
      ...(options.library ? { dialogs: options.library.dialogs } : {}),
      version: () => options.library?.version ?? 'unknown',
      emit,
    }),
    ...updateHandlers(options.updates ?? noUpdates, shell),
    ...ledgerTriageAndTemplates(options, changes),
  };
}

/** The prompt templates' handlers: the library's store, its dialogs, and template runs. */
function templateChannels(options: AppWiringOptions, changes: TaskChangeSink) {
  const { core } = options.runtime;
  return templateHandlers({
    core,
    ...(options.library ? { dialogs: options.library.dialogs } : {}),
    ...(options.overCapPrompts ? { overCap: options.overCapPrompts } : {}),
    // As `tasks:submit`: a submit refused for the account is heard once and not kept.
    follow: (records) =>
      followSubmits(
        core.engine,
        records,
        (refusal) => changes.refused(refusal),
        (localId) => changes.removed(localId),
      ).map((record) => core.engine.item(record)),
  });
}

/** Every `tasks:` handler: the history's, and Cancel on the service's (bounded by the clock). */
function taskChannels(
  options: AppWiringOptions,
  trash: TrashOperations,
  changes: TaskChangeSink,
  views: OpenViews,
): HandlersOf<'tasks'> {
  const { runtime, emit } = options;
  const { core } = runtime;
  return {
    ...taskHandlers({
      core,
      emit,
      changes,
      views,
      chooseFolder: options.chooseFolder,
      trash,
      ...(options.overCapPrompts ? { overCap: options.overCapPrompts } : {}),
      keptIds: { gallery: core.gallery, heldKeys: (known) => runtime.credentials.heldKeys(known) },
    }),
    ...taskCancelHandlers({ engine: core.engine, cancels: core.cancels, emit }),
    ...taskCommandHandlers({
      ...commandCore(core),
      copyText: options.copyText,
      addressOf: (provider) => typedAddress(runtime.settings.get(), provider),
      ...(core.workflows ? { workflows: core.workflows } : {}),
    }),
  };
}

/** The `compare:` handlers: each target where the compose form sends its service's tasks now. */
function compareChannels({ runtime }: AppWiringOptions): HandlersOf<'compare'> {
  const { credentials } = runtime;
  const { engine, history, cancels, costs } = runtime.core;
  const endpointOf = (provider: ProviderId) => credentials.endpointOf(provider);
  return compareHandlers({ engine, history, cancels, plan: { credentials, costs }, endpointOf });
}

/**
 * The ledger's handlers, triage's (ratings, flags, tags, boards, smart boards), the prompts',
 * the prompt templates' and compare's.
 */
function ledgerTriageAndTemplates(
  options: AppWiringOptions,
  changes: TaskChangeSink & { flush(): void },
) {
  const { runtime, emit } = options;
  return {
    ...ledgerHandlers(options),
    ...triageHandlers({ core: runtime.core, emit, changes }),
    ...promptHandlers({ prompts: runtime.core.prompts }),
    ...templateChannels(options, changes),
    ...workflowHandlers({
      workflows: runtime.core.workflows,
      ...(options.library ? { dialogs: options.library.dialogs } : {}),
    }),
    ...modelOptionsHandlers({
      options: runtime.core.paramSchemas,
      addressOf: (provider) => runtime.credentials.addressOf(provider),
      storedKeyOf: (provider, baseUrl) => runtime.credentials.storedKeyOf(provider, baseUrl),
      ...(options.library ? { dialogs: options.library.dialogs } : {}),
    }),
    ...compareChannels(options),
    ...inputChannels(options),
    ...stackHandlers(runtime.core.history),
  };
}

/**
 * The `inputs:` and `edit:` handlers: the input store in the gallery's folder (it follows a move
 * of the library), each edit target where the compose form sends its service's tasks (AppCredentials.
 * endpointOf: the demo standing in until a key is there), with main's key.
 */
function inputChannels(options: AppWiringOptions) {
  const { runtime } = options;
  const { core, credentials } = runtime;
  return inputHandlers({
    inputs: core.editInputs,
    engine: core.engine,
    plan: { credentials, costs: core.costs, workflows: core.workflows },
    settings: () => runtime.settings.get(),
    updateSettings: (patch) => runtime.updateSettings(patch),
    endpointOf: (provider) => credentials.endpointOf(provider),
    galleryBase: options.galleryBase ?? GALLERY_BASE,
    ...(options.inputDialogs ? { dialogs: options.inputDialogs } : {}),
  });
}

/** The cost ledger's handlers: its CSV saved where main's own dialog says. */
function ledgerHandlers(options: AppWiringOptions): HandlersOf<'costs'> {
  const { runtime, library, capPrompts } = options;
  return costHandlers({
    costs: runtime.core.costs,
    ...(library ? { dialogs: library.dialogs } : {}),
    ...(capPrompts ? { prompts: capPrompts } : {}),
    writeText: replaceFileBeside,
  });
}

/**
 * Wires the app around a started runtime: key, settings and demo changes and the engine's task
 * updates go to the page, and the engine starts (once), resuming every unfinished task. Dispose
 * to release everything.
 */
export function wireApp(given: AppWiringOptions): AppWiring {
  // No answer or event the page receives holds a key in a kept task's id (kept-id-page.ts).
  const options = { ...given, emit: given.runtime.keptIdPage.emitter(given.emit) };
  const { runtime, emit } = options;
  const wiring = new DisposableStore();
  wiring.add(
    runtime.keys.onChange((provider, status) => emit('keys:changed', { provider, status })),
  );
  wiring.add(runtime.settings.onDidChange((settings) => emit('settings:changed', settings)));
  const { serviceReach } = runtime.core;
  wiring.add(serviceReach.onDidChange((unreachable) => emit('network:changed', { unreachable })));
  wiring.add(runtime.credentials.onDemoChange((demo) => emit('app:demoChanged', { demo })));
  wiring.add((options.updates ?? noUpdates).onDidChange((state) => emit('updates:changed', state)));
  // The Costs screen reads the ledger again when it changed, not on every task update.
  wiring.add(runtime.core.costs.onDidChange((change) => emit('costs:changed', change)));
  // Deleted images and removed tasks wait in the core's trash for Undo; what a quit, crash or kill
  // left under way is finished first (journal replay), again for each folder the library is in.
  const { trash } = runtime.core;
  void trash.replay().catch(() => undefined);
  wiring.add(trash.onDidProgress((progress) => emit('trash:progress', progress)));
  // Task changes go to the page in batches; what waits is sent when the wiring ends.
  // Each record goes with its place in the views the page has open, found by main's queries.
  const views = new OpenViews(runtime.core);
  const logger = options.logger ?? silentLogger;
  const updates = wiring.add(new TaskUpdates({ clock: runtime.clock, emit, logger, views }));
  wiring.add(wireCore(runtime.core, options, updates));
  return {
    handlers: runtime.keptIdPage.answers(createIpcHandlers(options, trash, updates, views)),
    trash,
    beforeQuit: async (ms) => {
      // The window still shows: its last view of the tasks is their final one.
      updates.flush();
      const waitingFor = trash.inFlight();
      if (waitingFor) emit('app:quitting', { waitingFor });
      await trash.settle(ms);
      await trash.empty();
    },
    dispose: () => wiring.dispose(),
  };
}

/** The core: the host's observer, then its task updates to the page; then the engine starts. */
function wireCore(
  core: PictorCore,
  { observeCore }: AppWiringOptions,
  updates: TaskUpdates,
): Disposable {
  const store = new DisposableStore();
  const observed = observeCore?.(core);
  if (observed) store.add(observed);
  // The record as announced (the engine's current one): not read again.
  store.add(
    core.engine.onDidUpdate(({ record, live }) =>
      updates.updated({ record, live: isUnfinished(record) ? live : null }),
    ),
  );
  store.add(core.engine.onDidTriage((delta) => updates.triaged(delta)));
  core.engine.start({ resume: true });
  return store;
}
