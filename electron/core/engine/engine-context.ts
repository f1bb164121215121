/** What the engine's parts (poller, submitter, downloads) share with the engine that owns them. */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import { backoffDelay } from './backoff';
import type { TaskEngineOptions } from './engine-types';

export interface EngineContext {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly random: () => number;
  readonly options: TaskEngineOptions;
  /** Aborted when the engine stops. */
  readonly signal: AbortSignal;
  /** The live record of an active task. */
  get(localId: string): TaskRecord | undefined;
  /** Stores a changed record (persist + notify) and returns it with its new `updatedAt`. */
  commit(record: TaskRecord): TaskRecord;
  /**
   * Tells the engine's listeners that a task's live state changed with no record written (a
   * download given up before it started): who waits for the task to settle looks again.
   */
  announceLive(localId: string): void;
  /** Runs `work` in the background: `stop()` waits for it, and a failure is logged. */
  runInBackground<T>(work: Promise<T>): Promise<T>;
  isStopped(): boolean;
  /** Paused (the gallery is changing folder): no poll or download starts until it resumes. */
  isPaused(): boolean;
  /**
   * Whether this process may work on the task now (it owns the task's lease). False: another
   * process took it over, and the engine has already let it go.
   */
  owns(localId: string): boolean;
  /**
   * Work a sleep may cut is under way (a poll placed, a download queued): the sleep watch ticks
   * while any is (sleep-watch.ts), for the processes no system tells of a sleep.
   */
  watchSleep(): void;
  /** Delay before retry number `failures` (see backoff.ts); `retryAfterMs` is a floor. */
  backoff(failures: number, retryAfterMs?: number): number;
  /** Waits on the engine's clock; resolves early when the engine stops. */
  sleep(ms: number): Promise<void>;
}

type EngineContextBase = Omit<EngineContext, 'backoff' | 'sleep'>;

/** The context with {@link EngineContext.backoff} and {@link EngineContext.sleep} on its clock. */
export function withRetryTiming(base: EngineContextBase): EngineContext {
  const { clock, options, random, signal } = base;
  return {
    ...base,
    backoff: (failures, retryAfterMs) =>
      backoffDelay(
        failures,
        { baseMs: options.pollIntervalMs, maxMs: options.maxBackoffMs, random },
        retryAfterMs,
      ),
    sleep: (ms) =>
      new Promise((resolve) => {
        const timer = clock.setTimeout(resolve, ms);
        signal.addEventListener(
          'abort',
          () => {
            clock.clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      }),
  };
}
