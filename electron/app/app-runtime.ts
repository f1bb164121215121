/**
 * Everything the desktop app runs, without Electron: settings, the key vault, credentials with the
 * embedded demo service, and the core. main.ts builds it from Electron adapters; the end-to-end
 * harness builds it from plain Node ones, so both hosts run the same code.
 */
import type { SystemTrash } from '../ports/system-trash';
import type { ContentCredentialVerifier } from '../ports/content-credential-verifier';
import type { KeyStatus } from '../../shared/domain/key-status';
import { DEFAULT_PROVIDER, PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import { typedAddress } from '../../shared/domain/submit-target';
import type { SettingsPatch, Settings } from '../../shared/domain/settings';
import { recallFromHistory } from '../demo-service/recall';
import { startDemoService } from '../demo-service/server';
import type { DemoService, DemoServiceOptions } from '../demo-service/types';
import type { Clock } from '../ports/clock';
import { DisposableStore } from '../ports/disposable';
import type { FetchLike } from '../ports/http';
import type { ImageEngine } from '../ports/image-engine';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Logger } from '../ports/logger';
import type { SecretCipher } from '../ports/secret-cipher';
import type { UserGestures } from '../ports/user-gestures';
import type { UserPrompts } from '../ports/user-prompts';
import { AppCredentials } from './app-credentials';
import { askKeyAddress } from './key-address-question';
import { KeptIdPage } from './kept-id-page';
import { KeptKeySweep } from './kept-key-sweep';
import { KeyQuestionGate } from './key-question-gate';
import { addedLocalServers, askLocalServers, LOCAL_SERVERS } from './local-server-question';
import { localServerQuestionGate } from './local-server-question';
import { bindLegacyKey, serviceAddress } from '../core/credentials';
import type {
  GalleryMoveHooks,
  OpenedLibrary,
  RelocateFaults,
  RelocateResult,
} from '../core/library';
import {
  type KeySave,
  type KeyVault,
  saveCheckedKey,
  type SaveKeyOptions,
  ServiceKeys,
} from '../core/key-vault';
import { probeAtAddress } from '../core/service';
import type { ServiceCredentials } from '../ports/credentials';
import { secretRedactor, type Redactor } from '../core/logging';
import { openPictorCore, type PictorCore, type PictorCoreOptions } from '../core/pictor-core';
import { applySettingsPatch, SettingsService } from '../core/settings';

export interface AppRuntimeOptions {
  /** The app's data folder (history, settings, vault). */
  readonly dataDir: string;
  /** Used when the galleryDir setting is empty: the OS Pictures folder + /Pictor. */
  readonly defaultGalleryDir: string;
  readonly cipher: SecretCipher;
  readonly settingsStore: KeyValueStore;
  /** Each service's vault file (the app: `key-vault-<provider>`). */
  readonly serviceVaultStore: (provider: ProviderId) => KeyValueStore;
  /** The vault file of earlier versions (`key-vault`), whose key moves to its service's file. */
  readonly earlierVaultStore?: KeyValueStore;
  readonly fetch: FetchLike;
  /**
   * This computer's plain-http servers (and https ones at a loopback literal or `localhost`)
   * reached through the core's judged pinned transport, not
   * `fetch` (the app: Chromium's sockets cannot be judged before they write;
   * core/download/gated-transports.ts); default false (a test's `fetch` records every request).
   */
  readonly pinLocalServers?: boolean;
  /**
   * Who listens at a loopback address (tests: a suite on a manual clock reads no socket tables,
   * tests/support/owners-unread.ts); default this host's tables (core/service/local-owner.ts).
   */
  readonly localServers?: PictorCoreOptions['localServers'];
  readonly clock: Clock;
  readonly logger: Logger;
  /** The embedded demo service's behaviour (tests make it fast). */
  readonly demo?: DemoServiceOptions;
  /** Poll interval override for tests; the service's rule (3 s) otherwise. */
  readonly pollIntervalMs?: number;
  /** Watch timeout override for tests, replacing the Settings value (whole minutes). */
  readonly watchTimeoutMs?: number;
  /**
   * Questions for the user in the main process's own dialogs (sending the key to another service
   * base URL). Without it every such question is answered "cancel": the key never moves.
   */
  readonly prompts?: UserPrompts;
  /** The app's version (Electron: `app.getVersion()`), written into every saved image. */
  readonly appVersion?: string;
  /**
   * Decodes, thumbnails and converts images, and draws the embedded demo's pictures: the host's
   * engine (the app's Chromium image renderer; the harnesses' native sharp).
   */
  readonly imageEngine: ImageEngine;
  /**
   * Verifies saved images' Content Credentials: the host's (the app's image renderer); default
   * the core's worker-thread verifier. The host ends it.
   */
  readonly contentCredentials?: ContentCredentialVerifier;
  /** Injected faults for tests (a port), passed to every library move. */
  readonly libraryFaults?: RelocateFaults;
  /** Where deleted images go once their time for Undo ends (the host's); default none. */
  readonly systemTrash?: SystemTrash;
  /** Least time between two progress reports of a long operation (tests: 0); default 100 ms. */
  readonly progressEveryMs?: number;
  /** The history worker's script (tests: one bundled for the run); default the core's own. */
  readonly historyPort?: PictorCoreOptions['historyPort'];
  /** The reader of service answers (tests: the run's bundled worker); default the core's own. */
  readonly answers?: PictorCoreOptions['answers'];
  /** How much the inputs no task names may hold (tests); default the core's. */
  readonly inputQuota?: PictorCoreOptions['inputQuota'];
  /**
   * The user's own presses in the window (Electron: the main window's input events), which tell
   * the user's second thought after "keep" from a page asking again (key-question-gate.ts).
   * Absent: every change soon after "keep" waits out its quiet spell.
   */
  readonly userGestures?: UserGestures;
}

/** The setting that holds each service's address. */
const ADDRESSES = 'serviceBaseUrls';

export class AppRuntime {
  /** The runtime's own subscriptions (to the vault, the settings), ended by {@link close}. */
  private readonly subscriptions = new DisposableStore();
  /** Settings, key and gallery changes run one at a time, in the order they were asked for. */
  private queue: Promise<unknown> = Promise.resolve();
  /** One key question at a time, and a quiet spell after "keep" (key-question-gate.ts). */
  private readonly keyQuestions = new KeyQuestionGate(
    () => this.options.clock.now(),
    ADDRESSES,
    () => this.options.userGestures?.count() ?? null,
  );
  /** The same rules for allowing another user's local server (local-server-question.ts). */
  private readonly localServerQuestions = localServerQuestionGate(
    () => this.options.clock.now(),
    () => this.options.userGestures?.count() ?? null,
  );

  private constructor(
    private readonly options: AppRuntimeOptions,
    readonly settings: SettingsService,
    /** One key per service, each bound to its service's address. */
    readonly keys: ServiceKeys,
    readonly credentials: AppCredentials,
    readonly demo: DemoService,
    /**
     * The one core, for the life of the process: moving the library changes its folder in place
     * (core.library). Its engine is started by the host's wiring, once.
     */
    readonly core: PictorCore,
  ) {
    this.keptIds = new KeptKeySweep(core, options.logger, options.dataDir);
    // A `pictor` command's change of settings.json while the app runs is the app's at once.
    this.subscriptions.add(settings.follow());
    this.subscriptions.add(this.keptIdPage.follow(keys));
  }

  /** What the page receives of tasks kept under a key-carrying id (kept-id-page.ts). */
  readonly keptIdPage = new KeptIdPage();

  /** The cleaning of tasks kept under an id that carries a key (kept-key-sweep.ts). */
  readonly keptIds: KeptKeySweep;

  /** Call after the cipher is ready (Electron: after app.whenReady()). */
  static async start(options: AppRuntimeOptions): Promise<AppRuntime> {
    const { logger, clock } = options;
    const settings = await SettingsService.open({
      store: options.settingsStore,
      now: () => clock.now(),
      logger,
    });
    const keys = new ServiceKeys({
      storeFor: options.serviceVaultStore,
      ...(options.earlierVaultStore ? { earlierStore: options.earlierVaultStore } : {}),
      cipher: options.cipher,
      now: () => clock.now(),
      logger,
      timers: clock,
    });
    // Where the cipher has not answered yet (the app's start-up does not wait for the keychain),
    // the host verifies the keys once it has (desktop-start.ts).
    if (options.cipher.isReady()) await keys.verify();
    const vault = keys.vault(DEFAULT_PROVIDER);
    bindLegacyKey(vault, typedAddress(settings.get(), DEFAULT_PROVIDER), logger);
    let opened: PictorCore | null = null;
    const demo = await startDemoService({
      durationMs: { min: 3_000, max: 8_000 },
      images: options.imageEngine,
      // A demo task still running when the app last quit (or a `pictor` command on the built-in
      // demo ended) is made again from the history, and finishes when it would have.
      recall: recallFromHistory(() => opened?.history ?? null),
      ...options.demo,
    });
    const credentials = new AppCredentials({ keys, settings, demoUrl: () => demo.url });
    try {
      const core = await AppRuntime.openCore(options, settings, credentials);
      opened = core;
      const runtime = new AppRuntime(options, settings, keys, credentials, demo, core);
      runtime.retryHeldTasksOnKeyChanges();
      return runtime;
    } catch (error) {
      await demo.close();
      throw error;
    }
  }

  /** The host's image engine. */
  get imageEngine(): ImageEngine {
    return this.options.imageEngine;
  }

  /** The clock everything of this runtime keeps time by. */
  get clock(): Clock {
    return this.options.clock;
  }

  /** Today's contract's key (`pictor`): the vault keys were always kept in. */
  get vault(): KeyVault {
    return this.keys.vault(DEFAULT_PROVIDER);
  }

  /**
   * Keeps `target` redacting every stored key's text, now and whenever a key changes; with the
   * same keys, the library is swept for tasks kept under an id that carries one (not awaited).
   */
  async redactKeyIn(target: { setRedactor(redactor: Redactor | null): void }): Promise<void> {
    const update = async (): Promise<void> => {
      const marked = await this.keys.readableKeysMarked();
      target.setRedactor(marked.keys.length > 0 ? secretRedactor(marked.keys) : null);
      this.keptIds.sweep(marked);
    };
    this.subscriptions.add(this.keys.onChange(() => void update()));
    await update();
  }

  /**
   * The folder of the library this app has open: the setting records it, but a settings file
   * changed under the app (read again as it changes: SettingsService.follow) moves no library.
   */
  galleryDir(): string {
    return this.core.library.folder;
  }

  /** The data folder (history, settings, the trash journal). */
  get dataDir(): string {
    return this.options.dataDir;
  }

  /**
   * Applies a settings change from the page. A service's address with another base URL than the
   * one its stored key was entered for (another origin, or another path on the same origin) is
   * applied only after the user answers the main process's own dialog (send the key there, or
   * remove it); two services at one address are refused first; a new watch timeout applies at
   * once. The gallery folder is not a setting the page can change: see {@link moveGalleryTo}.
   * A change of address while that question is on screen is refused at once, not queued behind
   * it, and one soon after the user kept the key is refused without asking (key-question-gate.ts).
   * An address added to Local servers is applied only once the user agreed in main's own dialog
   * (local-server-question.ts), under the same rules.
   * @throws SettingsError for refused values, or when the user kept the address as it was.
   */
  updateSettings(patch: SettingsPatch): Promise<Settings> {
    const open =
      (patch[ADDRESSES] === undefined ? null : this.keyQuestions.whileOpen()) ??
      (patch[LOCAL_SERVERS] === undefined ? null : this.localServerQuestions.whileOpen());
    if (open) return Promise.reject(open);
    return this.exclusive(async () => {
      // Refused values (a shared address among them) are refused before any question is asked.
      const next = applySettingsPatch(this.settings.get(), patch);
      const added = addedLocalServers(this.settings.get(), next);
      await askLocalServers(added, this.options.prompts, this.localServerQuestions);
      const rebinds = await this.askKeyAddresses(patch, next);
      const updated = await this.settings.updateSoon(patch);
      for (const [provider, baseUrl] of rebinds) this.keys.vault(provider).bindBaseUrl(baseUrl);
      this.core.engine.setWatchTimeout(this.options.watchTimeoutMs ?? watchTimeoutMs(updated));
      return updated;
    });
  }

  /**
   * Stores a key pasted in Settings for `provider`'s service, bound to that service's address
   * now (today's contract: to none when no address is set yet; it is then bound when the user
   * confirms one).
   */
  setKey(
    key: string,
    allowWeakStorage: boolean,
    provider: ProviderId = DEFAULT_PROVIDER,
  ): Promise<KeyStatus> {
    return this.exclusive(() =>
      this.keys.vault(provider).setKey(key, {
        allowWeakStorage,
        baseUrl: serviceAddress(this.settings.get(), provider),
      }),
    );
  }

  /**
   * Save in Settings, for every service: checks the key with `provider`'s service at its address
   * now (its key probe, which creates no task), then stores it bound there; a refused key is not
   * stored, and one that could not be checked only when the user said so (`skipCheck`). See
   * core/key-vault/save-checked-key.ts.
   */
  saveKey(key: string, options: SaveKeyOptions, provider: ProviderId): Promise<KeySave> {
    return this.exclusive(() => {
      const now = () => this.clock.now();
      const deps = {
        vault: this.keys.vault(provider),
        baseUrl: serviceAddress(this.settings.get(), provider),
        provider,
        probe: probeAtAddress(this.core.client, now),
        now,
      };
      return saveCheckedKey(deps, key, options);
    });
  }

  /** Keeps what "Test connection" said of a stored key with it (the tick in Settings). */
  recordKeyCheck(credentials: ServiceCredentials, outcome: 'accepted' | 'refused'): void {
    const { keyFingerprint, baseUrl, provider } = credentials;
    this.keys.vault(provider ?? DEFAULT_PROVIDER).recordCheck(keyFingerprint, baseUrl, outcome);
  }

  /** Removes `provider`'s key. */
  clearKey(provider: ProviderId): Promise<KeyStatus> {
    return this.exclusive(() => Promise.resolve(this.keys.vault(provider).clear()));
  }

  /**
   * Moves the library to `folder`, which must come from the main process itself (its folder
   * dialog), never from the page. The setting changes only once the move is complete.
   * @returns how many task folders moved, and what was left in the old folder.
   * @throws GalleryPathError / file-system errors: the library stays where it was.
   */
  moveGalleryTo(folder: string, hooks: GalleryMoveHooks = {}): Promise<RelocateResult> {
    // The library serialises its own changes: settings and keys never wait behind one.
    return this.core.library.moveTo(folder, hooks);
  }

  /**
   * Makes `folder` the gallery without moving anything (Settings › Gallery folder › "Open the
   * library there", or start an empty one): the tasks its sidecars describe join the history;
   * the current library stays where it is. Same rules as {@link moveGalleryTo} for the folder.
   */
  openGalleryAt(folder: string): Promise<OpenedLibrary> {
    return this.core.library.openAt(folder);
  }

  async close(): Promise<void> {
    this.subscriptions.dispose();
    await this.keptIds.close();
    await this.core.close();
    await this.demo.close();
  }

  /** A new key, or a new service address, may let held tasks go on. */
  private retryHeldTasksOnKeyChanges(): void {
    this.subscriptions.add(this.keys.onChange(() => this.core.engine.keyChanged()));
    // Held tasks are retried only when where they go changes, not on every setting (theme…).
    const addresses = (settings: Settings) =>
      JSON.stringify(PROVIDER_IDS.map((provider) => serviceAddress(settings, provider)));
    let before = addresses(this.settings.get());
    this.subscriptions.add(
      this.settings.onDidChange((next) => {
        const now = addresses(next);
        if (now === before) return;
        before = now;
        this.core.engine.keyChanged();
      }),
    );
  }

  /**
   * The services whose address `patch` changes while a key is stored for them: each question
   * answered (see askKeyAddress), the base URLs to bind their keys to once the change is saved.
   */
  private async askKeyAddresses(
    patch: SettingsPatch,
    next: Settings,
  ): Promise<[ProviderId, string][]> {
    const current = this.settings.get();
    const rebinds: [ProviderId, string][] = [];
    const field = ADDRESSES;
    if (patch[field] === undefined) return rebinds;
    for (const provider of PROVIDER_IDS) {
      const to = serviceAddress(next, provider);
      if (to === serviceAddress(current, provider)) continue;
      const { logger } = this.options;
      // Only a user's answers start a quiet spell: without prompts, askKeyAddress refuses.
      const asking = this.options.prompts;
      const prompts = asking && this.keyQuestions.prompts(asking);
      const vault = this.keys.vault(provider);
      const rebind = await askKeyAddress({ vault, to, field, prompts, logger });
      if (rebind) rebinds.push([provider, rebind.baseUrl]);
    }
    return rebinds;
  }

  /**
   * Runs a change of settings or keys after every one asked for before it has finished: they go
   * together (an address change rebinds a key; a key is checked and bound at its address), never
   * behind a change of the library's folder, which `Library` serialises on its own.
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private static openCore(
    options: AppRuntimeOptions,
    settingsService: SettingsService,
    credentials: AppCredentials,
  ): Promise<PictorCore> {
    const settings = settingsService.get();
    return openPictorCore({
      dataDir: options.dataDir,
      galleryDir: settings.galleryDir || options.defaultGalleryDir,
      // The setting follows the library; the default folder is kept as no setting.
      libraryFolder: {
        record: async (folder) => {
          await settingsService.setGalleryDir(folder === options.defaultGalleryDir ? '' : folder);
        },
      },
      fetch: options.fetch,
      pinLocalServers: options.pinLocalServers === true,
      ...(options.localServers ? { localServers: options.localServers } : {}),
      // Read at each send: a change in Settings applies to the next task sent.
      inputSettings: () => settingsService.get(),
      credentials,
      clock: options.clock,
      logger: options.logger,
      imageEngine: options.imageEngine,
      ...(options.contentCredentials ? { contentCredentials: options.contentCredentials } : {}),
      ...(options.libraryFaults ? { libraryFaults: options.libraryFaults } : {}),
      ...(options.historyPort ? { historyPort: options.historyPort } : {}),
      ...(options.answers ? { answers: options.answers } : {}),
      ...(options.inputQuota ? { inputQuota: options.inputQuota } : {}),
      ...(options.systemTrash ? { systemTrash: options.systemTrash } : {}),
      ...(options.progressEveryMs === undefined
        ? {}
        : { progressEveryMs: options.progressEveryMs }),
      ...(options.appVersion === undefined ? {} : { appVersion: options.appVersion }),
      engine: {
        watchTimeoutMs: options.watchTimeoutMs ?? watchTimeoutMs(settings),
        ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
      },
    });
  }
}

function watchTimeoutMs(settings: Settings): number | null {
  return settings.watchTimeoutMinutes === 0 ? null : settings.watchTimeoutMinutes * 60_000;
}
