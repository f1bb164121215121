/**
 * Buffers that file bodies read into, lent out and given back by whoever knows that the body's
 * reader is done with every byte of them (the image page's answer to its job:
 * image-job-sources.ts). A burst of image jobs then reads every file into the same few buffers
 * instead of allocating fresh ones per read: fresh memory outside V8's heap is what made V8 run a
 * full collection every two or three 8 MB images served, and each fresh page costs a fault.
 *
 * Lent by size: a taker asks for at least the bytes of its read and gets the smallest kept
 * buffer that holds them, or a new one of that size rounded up to a whole `grain`. Buffers of one
 * fixed size split a read just over it in two (an 8.05 MiB image into 8 MiB and 53 KB, each in a
 * buffer of 8 MiB), so two such jobs in flight needed four where three were kept, and every job
 * allocated afresh: main's CPU per image served nearly doubled for images just over the size.
 *
 * Nothing is given back that a reader might still hold: a buffer not given back is left to the
 * garbage collector, as a fresh one would be. The largest given back are kept, up to `keptBytes`
 * in all, and dropped after `idleMs` with none lent or given back, so an idle app holds none.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import { processTimers } from '../base';

export interface LentBuffersOptions {
  /** A new buffer's length is a whole number of these bytes. */
  readonly grain: number;
  /** At most this many bytes are kept for lending again; more given back are dropped. */
  readonly keptBytes: number;
  /** The kept ones are dropped after this long with none lent or given back. */
  readonly idleMs: number;
  /** Measures `idleMs`. Default: Node's timers, unref'd. */
  readonly clock?: Clock;
}

export class LentBuffers {
  /** Kept buffers, largest first. */
  private free: Buffer[] = [];
  private made = 0;
  private idleTimer: TimerHandle | null = null;
  private readonly clock: Clock;

  constructor(private readonly options: LentBuffersOptions) {
    this.clock = options.clock ?? processTimers;
  }

  /**
   * The smallest kept buffer of at least `bytes`, or a new one (`bytes` rounded up to a grain)
   * when none is: it is the taker's until given back.
   */
  take(bytes: number): Buffer {
    this.rearm();
    let fit = -1;
    for (let at = 0; at < this.free.length && (this.free[at]?.length ?? 0) >= bytes; at += 1) {
      fit = at;
    }
    if (fit >= 0) return this.free.splice(fit, 1)[0] as Buffer;
    this.made += 1;
    const { grain } = this.options;
    // Its own memory (not Node's shared pool): a reader gets views of this very buffer.
    return Buffer.allocUnsafeSlow(Math.max(1, Math.ceil(bytes / grain)) * grain);
  }

  /** Gives back buffers no reader holds any more; the largest are kept, up to `keptBytes`. */
  give(buffers: readonly Buffer[]): void {
    this.rearm();
    const offered = buffers.filter(
      (buffer, at) => !this.free.includes(buffer) && buffers.indexOf(buffer) === at,
    );
    const all = [...this.free, ...offered].sort((a, b) => b.length - a.length);
    let bytes = 0;
    this.free = all.filter((buffer) => {
      if (bytes + buffer.length > this.options.keptBytes) return false;
      bytes += buffer.length;
      return true;
    });
  }

  /** How many are kept now (and their bytes), and how many were ever allocated. */
  get counters(): { readonly kept: number; readonly keptBytes: number; readonly made: number } {
    const keptBytes = this.free.reduce((sum, buffer) => sum + buffer.length, 0);
    return { kept: this.free.length, keptBytes, made: this.made };
  }

  private rearm(): void {
    if (this.idleTimer) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = null;
      this.free = [];
    }, this.options.idleMs);
  }
}
