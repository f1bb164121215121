/**
 * Buffers of one size that file bodies read into, lent out and given back by whoever knows that
 * the body's reader is done with every byte of them (the image page's answer to its job:
 * image-job-sources.ts). A burst of image jobs then reads every file into the same few buffers
 * instead of allocating fresh ones per read: fresh memory outside V8's heap is what made V8 run a
 * full collection every two or three 8 MB images served, and each fresh page costs a fault.
 *
 * Nothing is given back that a reader might still hold: a buffer not given back is left to the
 * garbage collector, as a fresh one would be. The kept ones are dropped after `idleMs` with no
 * buffer lent or given back, so an idle app holds none of them.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import { processTimers } from '../base';

export interface LentBuffersOptions {
  /** Each buffer's length. */
  readonly size: number;
  /** At most this many are kept for lending again; more given back are dropped. */
  readonly kept: number;
  /** The kept ones are dropped after this long with none lent or given back. */
  readonly idleMs: number;
  /** Measures `idleMs`. Default: Node's timers, unref'd. */
  readonly clock?: Clock;
}

export class LentBuffers {
  private readonly free: Buffer[] = [];
  private made = 0;
  private idleTimer: TimerHandle | null = null;
  private readonly clock: Clock;

  constructor(private readonly options: LentBuffersOptions) {
    this.clock = options.clock ?? processTimers;
  }

  /** A kept buffer, or a new one when none is: it is the taker's until given back. */
  take(): Buffer {
    this.rearm();
    const kept = this.free.pop();
    if (kept) return kept;
    this.made += 1;
    // Its own memory (not Node's shared pool): a reader gets views of this very buffer.
    return Buffer.allocUnsafeSlow(this.options.size);
  }

  /** Gives back buffers no reader holds any more; beyond the kept few, they are dropped. */
  give(buffers: readonly Buffer[]): void {
    this.rearm();
    for (const buffer of buffers) {
      if (this.free.length >= this.options.kept) return;
      if (buffer.length === this.options.size && !this.free.includes(buffer)) {
        this.free.push(buffer);
      }
    }
  }

  /** How many are kept now, and how many were ever allocated (the figures tests check). */
  get counters(): { readonly kept: number; readonly made: number } {
    return { kept: this.free.length, made: this.made };
  }

  private rearm(): void {
    if (this.idleTimer) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = null;
      this.free.length = 0;
    }, this.options.idleMs);
  }
}
