/**
 * The app's own updates: checks the feed shortly after start and then daily, downloads a newer
 * version in the background (or only announces it, as the user chose), and holds it until the
 * user picks "Restart to update", or installs it when the app quits while the setting is
 * "download in the background" (never after the user switched to "only tell me"). It never
 * restarts the app by itself, so running tasks are never cut short (they would resume after a
 * restart anyway). Every failure becomes one problem code
 * (the page words it as one quiet sentence) and a log line; nothing here throws at its callers
 * but {@link UpdateService.restart} when there is nothing to install.
 *
 * States: unavailable | idle → checking → (idle | available → downloading → ready) | error.
 */
import {
  updateVersionSchema,
  type UpdateMode,
  type UpdateState,
} from '../../../shared/domain/update-state';
import { sentence } from '../../../shared/i18n/sentence';
import type { Clock, TimerHandle } from '../../ports/clock';
import { Emitter, type Event } from '../../ports/event';
import type { Logger } from '../../ports/logger';
import type { UpdateOffer, Updater } from '../../ports/updater';
import { UserFacingError } from '../../core/errors';
import { releaseNotesText } from './release-notes';
import { classifyUpdateError, describeUpdateError } from './update-problems';

/** The first check waits for start-up work (resuming tasks, the window) to settle. */
export const FIRST_CHECK_DELAY_MS = 15_000;
export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;

export interface UpdateServiceOptions {
  readonly updater: Updater;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The user's choice, read at each decision (Settings can change it at any time). */
  readonly mode: () => UpdateMode;
  readonly firstCheckDelayMs?: number;
  readonly intervalMs?: number;
}

export class UpdateService {
  private current: UpdateState;
  private offer: UpdateOffer | null = null;
  private timer: TimerHandle | null = null;
  private running: Promise<UpdateState> | null = null;
  /** The download the user's setting started (not their "Download"): stopped when they switch. */
  private automatic: AbortController | null = null;
  private disposed = false;
  private readonly changed: Emitter<UpdateState>;

  constructor(private readonly options: UpdateServiceOptions) {
    this.changed = new Emitter({ name: 'update state changed', logger: options.logger });
    const { capability } = options.updater;
    this.current =
      capability.kind === 'none'
        ? { status: 'unavailable', reason: capability.reason, canInstall: false }
        : { status: 'idle', canInstall: capability.kind === 'install' };
  }

  state(): UpdateState {
    return { ...this.current };
  }

  /** Called with each new state, until the result is disposed. */
  readonly onDidChange: Event<UpdateState> = (listener) => this.changed.event(listener);

  /** Schedules the first check and, after each, the next one a day later. */
  start(): void {
    if (this.current.status === 'unavailable' || this.disposed || this.timer) return;
    this.schedule(this.options.firstCheckDelayMs ?? FIRST_CHECK_DELAY_MS);
  }

  /**
   * Asks the feed now (the "Check now" button and the schedule). Resolves the state after the
   * check, and after the download too when one starts; never rejects.
   */
  checkNow(): Promise<UpdateState> {
    const { status } = this.current;
    if (status === 'unavailable' || status === 'ready' || this.disposed) {
      return Promise.resolve(this.state());
    }
    return this.exclusive(() => this.check());
  }

  /** Downloads the version on offer (the user's "Download" when only told). Never rejects. */
  download(): Promise<UpdateState> {
    if (!this.offer || !this.current.canInstall || this.current.status === 'ready') {
      return Promise.resolve(this.state());
    }
    return this.exclusive(() => this.fetchOffer(null));
  }

  /**
   * Quits and installs the downloaded version; the app starts again in it, and its unfinished
   * tasks resume there.
   * @throws UserFacingError when no verified download is waiting.
   */
  restart(): void {
    if (this.current.status !== 'ready') {
      throw new UserFacingError(sentence('error.settings.noUpdateToInstall'), {
        code: 'bad_input',
      });
    }
    this.options.logger.info('restarting to install the update', {
      version: this.current.version,
    });
    try {
      this.options.updater.quitAndInstall();
    } catch (error) {
      this.fail(error, 'install_failed');
    }
  }

  /**
   * The address of the version on offer, for a copy that cannot install it (see
   * download-link.ts); null when there is none. Only main opens it: the page asks through
   * `updates:openDownload` and never learns it.
   */
  downloadLink(): string | null {
    if (this.current.canInstall || this.current.status !== 'available') return null;
    return this.offer?.downloadUrl ?? null;
  }

  /**
   * The user changed the setting: a version on offer starts downloading when they now want it,
   * and a download their setting started stops when they now want only to be told (the version
   * is then on offer again; nothing was kept, so nothing installs when the app quits). A version
   * already downloaded is installed at quit only while the setting is "download in the
   * background": told only, the user installs it with "Restart to update" or not at all.
   */
  modeChanged(): void {
    this.options.updater.installOnQuit(this.wantsDownload());
    if (this.wantsDownload()) {
      if (this.current.status === 'available' && this.offer && !this.running)
        void this.exclusive(() => this.fetchOffer(new AbortController()));
    } else {
      this.automatic?.abort();
    }
  }

  /**
   * The app is quitting: a downloaded version the setting installs at quit is handed to the OS's
   * installer where it must be (Squirrel.Mac; see the port). Never rejects.
   */
  async beforeQuit(): Promise<void> {
    if (this.current.status !== 'ready' || this.disposed) return;
    try {
      await this.options.updater.beforeQuit();
    } catch (error) {
      this.options.logger.warn('update not handed over at quit', {
        detail: describeUpdateError(error),
      });
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    this.changed.dispose();
  }

  private schedule(delay: number): void {
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      if (this.disposed) return;
      void this.checkNow().finally(() => {
        if (!this.disposed && !this.timer)
          this.schedule(this.options.intervalMs ?? CHECK_INTERVAL_MS);
      });
    }, delay);
  }

  /** One check or download at a time: a second request while one runs gets the same result. */
  private exclusive(work: () => Promise<UpdateState>): Promise<UpdateState> {
    if (this.running) return this.running;
    const run = work().finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async check(): Promise<UpdateState> {
    this.set({ status: 'checking', canInstall: this.current.canInstall });
    let offer: UpdateOffer | null;
    try {
      offer = await this.options.updater.check();
    } catch (error) {
      return this.fail(error);
    }
    if (offer && !updateVersionSchema().safeParse(offer.version).success) {
      // Valid semver can still be 10,000 characters of pre-release tags: not shown, not fetched.
      return this.fail(
        Object.assign(new Error('The feed offered a version Pictor does not show.'), {
          code: 'ERR_UPDATER_INVALID_VERSION',
        }),
      );
    }
    const lastCheckedAt = this.options.clock.now();
    this.offer = offer;
    if (!offer) {
      this.options.logger.info('no newer version on the update feed');
      return this.set({ status: 'idle', canInstall: this.current.canInstall, lastCheckedAt });
    }
    this.options.logger.info('a newer version is on the update feed', { version: offer.version });
    const notes = releaseNotesText(offer.releaseNotes);
    const { canInstall } = this.current;
    this.set({
      status: 'available',
      canInstall,
      ...(canInstall ? {} : { canOpenDownload: offer.downloadUrl !== undefined }),
      version: offer.version,
      ...(notes === undefined ? {} : { releaseNotes: notes }),
      lastCheckedAt,
    });
    return this.wantsDownload() ? this.fetchOffer(new AbortController()) : this.state();
  }

  /** Downloads the offer; `automatic` when the setting started it (null: the user's "Download"). */
  private async fetchOffer(automatic: AbortController | null): Promise<UpdateState> {
    const base = { ...this.current, problem: undefined };
    this.set({ ...base, status: 'downloading', progress: 0 });
    this.automatic = automatic;
    this.options.updater.installOnQuit(this.wantsDownload());
    try {
      await this.options.updater.download((fraction) => this.progress(fraction), automatic?.signal);
    } catch (error) {
      if (!automatic?.signal.aborted) return this.fail(error);
      this.options.logger.info('the update download stopped: the user chose to be only told');
      const { progress: _progress, ...offered } = base as UpdateState;
      return this.set({ ...offered, status: 'available' });
    } finally {
      this.automatic = null;
    }
    this.options.logger.info('the update is downloaded and verified', { version: base.version });
    const { progress: _progress, ...ready } = base as UpdateState;
    return this.set({ ...ready, status: 'ready' });
  }

  private progress(fraction: number): void {
    if (this.current.status !== 'downloading' || !Number.isFinite(fraction)) return;
    const rounded = Math.round(Math.min(1, Math.max(0, fraction)) * 100) / 100;
    if (rounded !== this.current.progress) this.set({ ...this.current, progress: rounded });
  }

  private wantsDownload(): boolean {
    return this.current.canInstall && this.options.mode() === 'download';
  }

  private fail(error: unknown, problem = classifyUpdateError(error)): UpdateState {
    this.options.logger.warn('update failed', { problem, detail: describeUpdateError(error) });
    const { version, releaseNotes } = this.current;
    return this.set({
      status: 'error',
      canInstall: this.current.canInstall,
      problem,
      ...(version === undefined ? {} : { version }),
      ...(releaseNotes === undefined ? {} : { releaseNotes }),
      lastCheckedAt: this.options.clock.now(),
    });
  }

  private set(next: UpdateState): UpdateState {
    const clean = Object.fromEntries(
      Object.entries(next).filter(([, value]) => value !== undefined),
    ) as UpdateState;
    this.current = clean;
    this.changed.fire(this.state());
    return this.state();
  }
}
