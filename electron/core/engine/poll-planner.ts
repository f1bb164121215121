/**
 * Spreads polls over the poll interval. Each task polls at a fixed phase within the interval;
 * a new (or re-placed) task takes the least-loaded phase slot in the next interval, so 200 tasks
 * submitted together poll about 200/3 a second instead of 200 in one burst.
 *
 * Ties between equally loaded slots are not given to the earliest slot: with a task count that
 * is not a multiple of the slot count, that put every leftover task in the first slots, so after
 * a wake the first third of the interval held up to twice its share (40 tasks: 20 polls in one
 * second instead of ~14). Among the least-loaded slots the planner takes the one whose
 * surrounding third of the interval holds the fewest polls, then the first in a spread order
 * (a stride of about 0.38 × slots, the golden section), so any number of tasks fills the cycle
 * evenly and a lone task still polls at the earliest time.
 */
export class PollPlanner {
  private readonly slotMs: number;
  private readonly load: number[];
  private readonly slotOf = new Map<string, number>();
  /** Slots in a third of the interval: the width of the burst rule's one-second window. */
  private readonly window: number;
  private readonly stride: number;

  constructor(
    private readonly intervalMs: number,
    slots = 30,
  ) {
    this.load = new Array<number>(Math.max(1, slots)).fill(0);
    this.slotMs = intervalMs / this.load.length;
    this.window = Math.max(1, Math.round(this.load.length / 3));
    this.stride = spreadStride(this.load.length);
  }

  /**
   * Returns a time in [earliest, earliest + interval) whose phase slot is the least loaded (on
   * ties, the one in the least busy third of the interval, then the first in the spread order
   * starting at `earliest`), and records the task as polling in that slot.
   */
  place(key: string, earliest: number): number {
    this.release(key);
    const slots = this.load.length;
    const firstSlot = this.slotIndex(earliest);
    const windowLoad = this.windowLoads();
    let best = { step: 0, load: Infinity, busy: Infinity };
    for (let rank = 0; rank < slots; rank += 1) {
      const step = (rank * this.stride) % slots;
      const slot = (firstSlot + step) % slots;
      const load = this.load[slot] ?? 0;
      if (load > best.load) continue;
      const busy = this.busiestAround(slot, windowLoad);
      if (load < best.load || busy < best.busy) best = { step, load, busy };
    }
    const slot = (firstSlot + best.step) % slots;
    this.load[slot] = (this.load[slot] ?? 0) + 1;
    this.slotOf.set(key, slot);
    // Whole milliseconds, as clocks tell time: an interval that the slots do not divide evenly
    // (200 ms in 30 slots) would otherwise make a poll time, and a clock that jumps to it, a
    // fraction that no timestamp in a record may be.
    return earliest + Math.round(best.step * this.slotMs);
  }

  /**
   * Re-places several tasks together (back from sleep): all are released first, so they are
   * spread as if placed at once rather than around their old phases.
   */
  placeAll(keys: readonly string[], earliest: number): Map<string, number> {
    for (const key of keys) this.release(key);
    return new Map(keys.map((key) => [key, this.place(key, earliest)]));
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

  /** Load of every window of `window` consecutive slots, by its first slot (wrapping). */
  private windowLoads(): number[] {
    const slots = this.load.length;
    return this.load.map((_, start) => {
      let sum = 0;
      for (let i = 0; i < this.window; i += 1) sum += this.load[(start + i) % slots] ?? 0;
      return sum;
    });
  }

  /** The busiest window that contains `slot`. */
  private busiestAround(slot: number, windowLoad: readonly number[]): number {
    const slots = this.load.length;
    let busiest = 0;
    for (let back = 0; back < this.window; back += 1) {
      busiest = Math.max(busiest, windowLoad[(slot - back + slots) % slots] ?? 0);
    }
    return busiest;
  }

  private slotIndex(time: number): number {
    const phase = ((time % this.intervalMs) + this.intervalMs) % this.intervalMs;
    return Math.min(this.load.length - 1, Math.floor(phase / this.slotMs));
  }
}

/** A step coprime with `slots` near slots × 0.382, so successive steps visit every slot, spread. */
function spreadStride(slots: number): number {
  const target = Math.max(1, Math.round(slots * 0.381966));
  for (let distance = 0; distance < slots; distance += 1) {
    for (const candidate of [target - distance, target + distance]) {
      if (candidate >= 1 && candidate < slots && gcd(candidate, slots) === 1) return candidate;
    }
  }
  return 1;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
