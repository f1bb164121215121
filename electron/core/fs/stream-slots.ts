/**
 * How many gallery files may be read from at once while they are sent in pieces (file-body.ts).
 * Electron reads a response's body ahead of the page, into its own buffer and its data pipe, as
 * soon as the response is given, whatever the page does; a page that asks for thousands of large
 * images and reads none would have the main process read the start of every one. A body takes a
 * slot before its first read and gives it back when it ends or is given up; past the limit, its
 * first read waits (first come, first served) and holds nothing meanwhile. Plain counters, one
 * process: JavaScript runs one turn at a time.
 */

/** What the slots hold now and held at most (the figures tests check). */
export interface StreamSlotCounters {
  readonly active: number;
  readonly peak: number;
  /** First reads waiting for a slot now. */
  readonly waiting: number;
}

export class StreamSlots {
  private active = 0;
  private peak = 0;
  private readonly queue: (() => void)[] = [];

  /** @param max bodies read from at once. */
  constructor(readonly max: number) {}

  /**
   * A slot, at once when one is free, else when one is given back (in the order asked).
   * @returns the function that gives it back (calling it again does nothing).
   */
  take(): Promise<() => void> {
    if (this.active < this.max) {
      this.active += 1;
      this.peak = Math.max(this.peak, this.active);
      return Promise.resolve(this.giver());
    }
    return new Promise((resolve) => this.queue.push(() => resolve(this.giver())));
  }

  counters(): StreamSlotCounters {
    return { active: this.active, peak: this.peak, waiting: this.queue.length };
  }

  /** Gives the slot back: to the first waiting, else free. */
  private giver(): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    };
  }
}
