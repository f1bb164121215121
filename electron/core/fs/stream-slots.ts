/**
 * How many files a protocol may hold open at once (the gallery's, the image jobs'). Electron reads
 * a response's body ahead of the page, into its own buffer and its data pipe, as soon as the
 * response is given, whatever the page does; a page that asks for thousands of images and reads
 * none would otherwise have the main process open every one of them and read the start of each.
 *
 * A request takes a slot before it opens its file, and the slot goes back when the file is closed:
 * at once for a file read whole, when the body ends or is given up for one sent in pieces. Past
 * the limit, a request waits for a slot (first come, first served) holding no file; past
 * `maxWaiting` waiting, `take` answers null at once (the caller answers 503). A body the page has
 * asked nothing of for `idleMs` (it left the response unread) loses its slot: its holder ends it
 * (file-body.ts), so unread responses cannot keep every slot for ever. Plain counters, one
 * process: JavaScript runs one turn at a time.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import { processTimers } from '../base';

/** What the slots hold now and held at most (the figures tests check). */
export interface StreamSlotCounters {
  readonly active: number;
  readonly peak: number;
  /** Requests waiting for a slot now. */
  readonly waiting: number;
  /** Requests refused because `maxWaiting` already waited. */
  readonly refused: number;
  /** Slots taken back from a holder idle for `idleMs`. */
  readonly reclaimed: number;
}

export interface StreamSlotOptions {
  /** Requests that may wait for a slot at once; one more is refused (`take` answers null). */
  readonly maxWaiting: number;
  /** How long a holder may ask for nothing before its slot is taken back (see StreamSlot.idle). */
  readonly idleMs: number;
  /** Measures `idleMs`. Default: Node's timers, unref'd. */
  readonly clock?: Clock;
}

/** One slot, held by one open file. */
export interface StreamSlot {
  /** Gives the slot back (to the first waiting, else free). Calling it again does nothing. */
  release(): void;
  /**
   * The holder waits on its reader: if `busy` is not called within `idleMs`, `reclaim` runs (the
   * holder ends what it holds) and the slot is given back. A later call replaces an earlier one.
   */
  idle(reclaim: () => void): void;
  /** The holder is working for its reader: the idle bound stops until the next `idle`. */
  busy(): void;
}

export class StreamSlots {
  private active = 0;
  private peak = 0;
  private refused = 0;
  private reclaimed = 0;
  private readonly queue: ((slot: StreamSlot) => void)[] = [];
  private readonly clock: Clock;

  /** @param max files held open at once. */
  constructor(
    readonly max: number,
    private readonly options: StreamSlotOptions,
  ) {
    this.clock = options.clock ?? processTimers;
  }

  /**
   * A slot, at once when one is free, else when one is given back (in the order asked), or
   * null at once when `maxWaiting` requests wait already.
   */
  take(): Promise<StreamSlot | null> {
    if (this.active < this.max) {
      this.active += 1;
      this.peak = Math.max(this.peak, this.active);
      return Promise.resolve(this.slot());
    }
    if (this.queue.length >= this.options.maxWaiting) {
      this.refused += 1;
      return Promise.resolve(null);
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  counters(): StreamSlotCounters {
    const { active, peak, refused, reclaimed } = this;
    return { active, peak, waiting: this.queue.length, refused, reclaimed };
  }

  private slot(): StreamSlot {
    let held = true;
    let timer: TimerHandle | null = null;
    const busy = () => {
      if (timer !== null) this.clock.clearTimeout(timer);
      timer = null;
    };
    const release = () => {
      if (!held) return;
      held = false;
      busy();
      const next = this.queue.shift();
      if (next) next(this.slot());
      else this.active -= 1;
    };
    const idle = (reclaim: () => void) => {
      busy();
      if (!held) return;
      timer = this.clock.setTimeout(() => {
        timer = null;
        this.reclaimed += 1;
        reclaim();
        release();
      }, this.options.idleMs);
    };
    return { release, idle, busy };
  }
}
