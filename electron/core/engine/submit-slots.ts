/**
 * How many submit requests go to one service address at once: a compare (or a large batch) sends
 * its tasks side by side, at most {@link SUBMITS_IN_FLIGHT} to each address, the others waiting
 * their turn in order. A slot is held only while the request is out: a task waiting after a 429
 * holds none.
 */

/** Submit requests in flight to one service address at most. */
export const SUBMITS_IN_FLIGHT = 4;

export class SubmitSlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limit = SUBMITS_IN_FLIGHT) {}

  /** `send` once `address` has a free slot, the slot held until it settles. */
  async around<T>(address: string, send: () => Promise<T>): Promise<T> {
    await this.take(address);
    try {
      return await send();
    } finally {
      this.give(address);
    }
  }

  /** Requests out to `address` now (for tests and the log). */
  inFlight(address: string): number {
    return this.busy.get(address) ?? 0;
  }

  private async take(address: string): Promise<void> {
    const busy = this.busy.get(address) ?? 0;
    if (busy < this.limit) {
      this.busy.set(address, busy + 1);
      return;
    }
    // The slot is handed over by give(): the count stays as it is.
    await new Promise<void>((resolve) => {
      const queue = this.waiting.get(address) ?? [];
      queue.push(resolve);
      this.waiting.set(address, queue);
    });
  }

  private give(address: string): void {
    const queue = this.waiting.get(address);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(address);
    if (next) return next();
    const busy = (this.busy.get(address) ?? 1) - 1;
    if (busy <= 0) this.busy.delete(address);
    else this.busy.set(address, busy);
  }
}
