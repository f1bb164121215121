/**
 * Everything the desktop app runs, without Electron: settings, the key vault, credentials with the
 * embedded demo service, and the core. main.ts builds it from Electron adapters; the end-to-end
 * harness builds it from plain Node ones, so both hosts run the same code.
 */
import type { SettingsPatch, Settings } from '../../shared/domain/settings';
import { startDemoService, type DemoService, type DemoServiceOptions } from '../demo-service';
import type { Clock } from '../ports/clock';
import type { FetchLike } from '../ports/http';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Logger } from '../ports/logger';
import type { SecretCipher } from '../ports/secret-cipher';
import { AppCredentials } from './app-credentials';
import { relocateGallery } from './gallery/relocate';
import { KeyVault } from './key-vault/key-vault';
import { secretRedactor, type Redactor } from './logging/redaction';
import { openPictorCore, type PictorCore } from './pictor-core';
import { SettingsService } from './settings/settings-service';

export interface AppRuntimeOptions {
  /** The app's data folder (history, settings, vault). */
  readonly dataDir: string;
  /** Used when the galleryDir setting is empty: the OS Pictures folder + /Pictor. */
  readonly defaultGalleryDir: string;
  readonly cipher: SecretCipher;
  readonly settingsStore: KeyValueStore;
  readonly vaultStore: KeyValueStore;
  readonly fetch: FetchLike;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The embedded demo service's behaviour (tests make it fast). */
  readonly demo?: DemoServiceOptions;
  /** Poll interval override for tests; the service's rule (3 s) otherwise. */
  readonly pollIntervalMs?: number;
  /** Watch timeout override for tests, replacing the Settings value (whole minutes). */
  readonly watchTimeoutMs?: number;
}

/** Called after the core was replaced (gallery moved), so listeners can re-subscribe. */
type CoreListener = (core: PictorCore) => void;

export class AppRuntime {
  private coreListeners = new Set<CoreListener>();

  private constructor(
    private readonly options: AppRuntimeOptions,
    readonly settings: SettingsService,
    readonly vault: KeyVault,
    readonly credentials: AppCredentials,
    readonly demo: DemoService,
    private current: PictorCore,
  ) {}

  /** Call after the cipher is ready (Electron: after app.whenReady()). */
  static async start(options: AppRuntimeOptions): Promise<AppRuntime> {
    const { logger, clock } = options;
    const settings = new SettingsService({
      store: options.settingsStore,
      now: () => clock.now(),
      logger,
    });
    const vault = new KeyVault({
      store: options.vaultStore,
      cipher: options.cipher,
      now: () => clock.now(),
      logger,
    });
    await vault.verify();
    const demo = await startDemoService({
      durationMs: { min: 3_000, max: 8_000 },
      ...options.demo,
    });
    const credentials = new AppCredentials({ vault, settings, demoUrl: () => demo.url });
    try {
      const core = await AppRuntime.openCore(options, settings.get(), credentials);
      const runtime = new AppRuntime(options, settings, vault, credentials, demo, core);
      vault.onChange(() => runtime.core.engine.keyChanged());
      // Held tasks are retried only when where they go changes, not on every setting (theme…).
      let baseUrl = settings.get().baseUrl;
      settings.onChange((next) => {
        if (next.baseUrl === baseUrl) return;
        baseUrl = next.baseUrl;
        runtime.core.engine.keyChanged();
      });
      return runtime;
    } catch (error) {
      await demo.close();
      throw error;
    }
  }

  get core(): PictorCore {
    return this.current;
  }

  /** Keeps `target` redacting the stored key's text, now and whenever the key changes. */
  async redactKeyIn(target: { setRedactor(redactor: Redactor | null): void }): Promise<void> {
    const update = async (): Promise<void> => {
      const key = await this.vault.readKey();
      target.setRedactor(key ? secretRedactor([key]) : null);
    };
    this.vault.onChange(() => void update());
    await update();
  }

  galleryDir(): string {
    return this.settings.get().galleryDir || this.options.defaultGalleryDir;
  }

  onCoreReplaced(listener: CoreListener): () => void {
    this.coreListeners.add(listener);
    return () => this.coreListeners.delete(listener);
  }

  /**
   * Applies a settings change from the user. A new gallery folder moves the gallery there first
   * (the setting changes only once the files are moved); a new watch timeout applies at once.
   */
  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    const before = this.galleryDir();
    if (patch.galleryDir !== undefined) {
      const after = patch.galleryDir || this.options.defaultGalleryDir;
      if (after !== before) await this.moveGallery(before, after);
    }
    const updated = this.settings.update(patch);
    this.current.engine.setWatchTimeout(this.options.watchTimeoutMs ?? watchTimeoutMs(updated));
    return updated;
  }

  async close(): Promise<void> {
    await this.current.close();
    await this.demo.close();
  }

  private async moveGallery(from: string, to: string): Promise<void> {
    await this.current.close();
    let moved = false;
    try {
      await relocateGallery(from, to);
      moved = true;
      this.options.logger.info('gallery moved', { from, to });
    } finally {
      // Reopened on the new folder when the move worked, on the old one when it did not.
      const galleryDir = moved ? to : from;
      this.current = await AppRuntime.openCore(
        this.options,
        { ...this.settings.get(), galleryDir },
        this.credentials,
      );
      this.current.engine.start({ resume: true });
      for (const listener of this.coreListeners) listener(this.current);
    }
  }

  private static openCore(
    options: AppRuntimeOptions,
    settings: Settings,
    credentials: AppCredentials,
  ): Promise<PictorCore> {
    return openPictorCore({
      dataDir: options.dataDir,
      galleryDir: settings.galleryDir || options.defaultGalleryDir,
      fetch: options.fetch,
      credentials,
      clock: options.clock,
      logger: options.logger,
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
