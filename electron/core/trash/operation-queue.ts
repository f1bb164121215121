/**
 * The trash's operations one at a time, in the order asked, with their progress: what runs now
 * and how far it is, reported to listeners a few times a second and always at the end, and a
 * bounded wait for the queue to drain (the app quits).
 */
import type { Clock } from '../../ports/clock';
import type { Disposable } from '../../ports/disposable';
import { Emitter } from '../../ports/event';
import type { Logger } from '../../ports/logger';

/** How far the operation under way is. */
export interface TrashProgress {
  readonly operation: 'delete' | 'restore';
  readonly items: 'images' | 'tasks';
  readonly done: number;
  readonly total: number;
}

/** Progress is reported at most this often, and always at the end. */
const PROGRESS_MS = 100;

export class OperationQueue {
  private readonly progressed: Emitter<TrashProgress>;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private current: TrashProgress | null = null;
  private lastReport = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    logger: Logger,
  ) {
    this.progressed = new Emitter({ name: 'trash progress', logger });
  }

  /** Runs `work` after every operation asked before it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending += 1;
    const run = this.queue.then(work);
    const settle = () => {
      this.pending -= 1;
      if (this.pending === 0) this.current = null;
    };
    this.queue = run.then(settle, settle);
    return run;
  }

  /** How far the operation under way is; null when none is. */
  inFlight(): TrashProgress | null {
    if (this.pending === 0) return null;
    return this.current ?? { operation: 'restore', items: 'images', done: 0, total: 0 };
  }

  /** Called with the progress a few times a second and at the end, until disposed. */
  onProgress(listener: (progress: TrashProgress) => void): Disposable {
    return this.progressed.event(listener);
  }

  report(progress: TrashProgress): void {
    this.current = progress;
    const now = this.clock.now();
    if (progress.done < progress.total && now - this.lastReport < PROGRESS_MS) return;
    this.lastReport = now;
    this.progressed.fire(progress);
  }

  /**
   * Waits for the operations under way, at most `ms`.
   * @returns whether none is left.
   */
  async settle(ms: number): Promise<boolean> {
    if (this.pending === 0) return true;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = this.clock.setTimeout(() => resolve(false), ms);
    });
    const settled = await Promise.race([this.queue.then(() => true), timeout]);
    if (timer !== undefined) this.clock.clearTimeout(timer);
    return settled && this.pending === 0;
  }
}
