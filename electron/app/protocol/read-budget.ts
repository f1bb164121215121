/**
 * How much the gallery protocol may hold of files read whole. A page asks for hundreds of
 * thumbnails and images at once; a small file is read whole (one trip through the thread pool,
 * not a stream's several) and its bytes are held until the page takes them. Without a bound,
 * 2,000 requests at once held gigabytes. A read takes its bytes from the budget before it starts
 * and gives them back when the page has taken them all and asked for more (or gave up): Electron
 * takes a body ahead of the page, so a page that reads nothing keeps the bytes in the budget
 * (core/fs/file-body.ts). A request that does not fit is streamed instead, in pieces read only as they
 * are asked for, within its own bound (core/fs/stream-slots.ts), so nothing waits on a budget that a slow
 * page holds. Plain counters, one process, no locks: JavaScript runs one turn at a time.
 */

/** What a budget holds now and held at most (the figures tests check). */
export interface ReadBudgetCounters {
  /** Whole-file reads holding bytes now. */
  readonly reads: number;
  /** Bytes those reads hold now. */
  readonly bytes: number;
  readonly peakReads: number;
  readonly peakBytes: number;
  /** Reads that fitted. */
  readonly taken: number;
  /** Requests that did not fit (streamed instead). */
  readonly refused: number;
}

export class ReadBudget {
  private reads = 0;
  private bytes = 0;
  private peakReads = 0;
  private peakBytes = 0;
  private taken = 0;
  private refused = 0;

  /**
   * @param maxBytes bytes all whole-file reads may hold together.
   * @param maxReads whole-file reads at once, whatever their size.
   */
  constructor(
    readonly maxBytes: number,
    readonly maxReads: number,
  ) {}

  /**
   * Takes `bytes` for one read if they fit beside what is held now.
   * @returns a function that gives them back (calling it again does nothing), or `null`.
   */
  tryTake(bytes: number): (() => void) | null {
    if (this.reads + 1 > this.maxReads || this.bytes + bytes > this.maxBytes) {
      this.refused += 1;
      return null;
    }
    this.reads += 1;
    this.bytes += bytes;
    this.taken += 1;
    this.peakReads = Math.max(this.peakReads, this.reads);
    this.peakBytes = Math.max(this.peakBytes, this.bytes);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.reads -= 1;
      this.bytes -= bytes;
    };
  }

  counters(): ReadBudgetCounters {
    const { reads, bytes, peakReads, peakBytes, taken, refused } = this;
    return { reads, bytes, peakReads, peakBytes, taken, refused };
  }
}
