/**
 * Spreads polls over the poll interval. Each task polls at a fixed phase within the interval;
 * a new (or re-placed) task takes the least-loaded phase slot in the next interval, so 200 tasks
 * submitted together poll about 200/3 a second instead of 200 in one burst.
 */
export class PollPlanner {
  private readonly slotMs: number;
  private readonly load: number[];
  private readonly slotOf = new Map<string, number>();

  constructor(
    private readonly intervalMs: number,
    slots = 30,
  ) {
    this.load = new Array<number>(Math.max(1, slots)).fill(0);
    this.slotMs = intervalMs / this.load.length;
  }

  /**
   * Returns a time in [earliest, earliest + interval) whose phase slot is the least loaded
   * (the earliest such time on ties), and records the task as polling in that slot.
   */
  place(key: string, earliest: number): number {
    this.release(key);
    const firstSlot = this.slotIndex(earliest);
    let best = 0;
    let bestLoad = Number.POSITIVE_INFINITY;
    for (let step = 0; step < this.load.length; step += 1) {
      const slotLoad = this.load[(firstSlot + step) % this.load.length] ?? 0;
      if (slotLoad < bestLoad) {
        best = step;
        bestLoad = slotLoad;
      }
    }
    const slot = (firstSlot + best) % this.load.length;
    this.load[slot] = (this.load[slot] ?? 0) + 1;
    this.slotOf.set(key, slot);
    return earliest + best * this.slotMs;
  }

  /** Forgets the task (finished, held or removed). */
  release(key: string): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.load[slot] = Math.max(0, (this.load[slot] ?? 0) - 1);
    this.slotOf.delete(key);
  }

  get size(): number {
    return this.slotOf.size;
  }

  private slotIndex(time: number): number {
    const phase = ((time % this.intervalMs) + this.intervalMs) % this.intervalMs;
    return Math.min(this.load.length - 1, Math.floor(phase / this.slotMs));
  }
}
