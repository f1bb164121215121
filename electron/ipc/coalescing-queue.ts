/**
 * A queue that coalesces values by key and hands them on in batches, at most one batch per
 * interval (GitHub Desktop's queued emit, VS Code's debounced event): the page hears of many
 * changes a few times a second, however fast they come. Within a batch each key appears once,
 * with the last value pushed for it, at the place of its first push since the previous batch.
 *
 * The first value after a quiet interval goes out at the clock's next turn (a leading batch, so a
 * lone change is not held back); while values keep coming, a batch goes every `intervalMs`. The
 * timers run on the injected clock, so tests drive them with the manual clock.
 */
import type { Clock, TimerHandle } from '../ports/clock';
import type { Disposable } from '../ports/disposable';

export interface CoalescingQueueOptions<T> {
  readonly clock: Clock;
  /** The least time from one batch to the next. */
  readonly intervalMs: number;
  /** Receives each batch (never empty). */
  readonly deliver: (batch: T[]) => void;
}

export class CoalescingQueue<T> implements Disposable {
  /** Key → latest value; a Map keeps each key where it was first set. */
  private pending = new Map<string, T>();
  private timer: TimerHandle | null = null;
  private lastBatchAt = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(private readonly options: CoalescingQueueOptions<T>) {}

  /**
   * Queues `value` for `key`, replacing what was queued for it (its place kept), or with
   * `merge`, what `merge` makes of the two.
   */
  push(key: string, value: T, merge?: (queued: T, value: T) => T): void {
    if (this.disposed) return;
    const queued = this.pending.get(key);
    this.pending.set(key, queued === undefined || !merge ? value : merge(queued, value));
    this.schedule();
  }

  /** How many keys wait for the next batch. */
  get size(): number {
    return this.pending.size;
  }

  /** Hands on what is queued now, as one batch (nothing when nothing waits). */
  flush(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.lastBatchAt = this.options.clock.now();
    this.options.deliver(batch);
  }

  /** Hands on what is queued, then takes nothing more. */
  dispose(): void {
    this.flush();
    this.disposed = true;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const { clock, intervalMs } = this.options;
    const wait = Math.max(0, this.lastBatchAt + intervalMs - clock.now());
    this.timer = clock.setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }
}
