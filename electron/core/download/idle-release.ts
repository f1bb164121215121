/**
 * Gives memory back once the downloads have been idle a while: a burst of downloads grows main's
 * heap (V8 keeps the pages it frees: core/base/heap-pages.ts), and without this main kept that
 * peak for the rest of the day. The release runs once per quiet spell, `afterMs` after the last
 * download settled with none started since; a download that starts meanwhile puts it off. The
 * process's also holds V8's young generation at its cap until the core closes (heap-pages.ts):
 * without it each burst's peak grew with the young generation over the day.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import { capYoungGeneration, processTimers, releaseHeapPages } from '../base';

/** How long downloads must have been idle before the release: a burst's gaps are shorter. */
export const IDLE_RELEASE_MS = 30_000;

export class IdleRelease {
  private running = 0;
  private timer: TimerHandle | null = null;
  private stopped = false;

  /**
   * @param clock unref'd timers in the app (core/base: processTimers), so a pending release
   *   never keeps a process alive; tests give a manual clock
   * @param release gives the memory back (core/base: releaseHeapPages)
   * @param onStop run once when stopped (the process's: lifts the young generation's cap)
   */
  constructor(
    private readonly clock: Clock,
    private readonly release: () => void,
    private readonly onStop: () => void = () => undefined,
    private readonly afterMs = IDLE_RELEASE_MS,
  ) {}

  /**
   * The process's: on unref'd timers, V8's kept pages released (or `release`, tests), each
   * release logged with how long it took; V8's young generation held at its cap from now until
   * the release stops (core/base: capYoungGeneration).
   */
  static ofProcess(logger: Logger, release: () => number = releaseHeapPages): IdleRelease {
    const released = () => {
      logger.info('Memory given back after the downloads', { ms: Math.round(release()) });
    };
    return new IdleRelease(processTimers, released, capYoungGeneration());
  }

  /** Runs one download: the release waits until it and every other has settled. */
  async around<T>(download: () => Promise<T>): Promise<T> {
    this.running += 1;
    this.cancel();
    try {
      return await download();
    } finally {
      this.running -= 1;
      if (this.running === 0 && !this.stopped) {
        this.timer = this.clock.setTimeout(() => this.fire(), this.afterMs);
      }
    }
  }

  /** No release from now on (the core closes). */
  stop(): void {
    if (!this.stopped) this.onStop();
    this.stopped = true;
    this.cancel();
  }

  private fire(): void {
    this.timer = null;
    if (this.running === 0 && !this.stopped) this.release();
  }

  private cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
