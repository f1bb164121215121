import type { Clock, TimerHandle } from '../../electron/ports/clock';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/**
 * A clock that moves only when the test says so. `advance` runs due timers in time order and
 * lets promise callbacks settle between them, so async code driven by timers behaves as in real time.
 * Like `Date.now()` it tells whole milliseconds: a timer of a fractional delay falls due at the
 * next whole millisecond, and a move by a fraction moves to the next one (a time the core stamps
 * on a record is never a fraction the record's schema refuses).
 */
export class ManualClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers = new Map<number, Timer>();
  /** How far the wall clock was set (NTP, the user) or slept from the time timers run on. */
  private wallOffset = 0;
  /** How long the machine slept with its timers standing still ({@link suspend}). */
  private slept = 0;

  /**
   * The time the machine was awake (Linux's and macOS's monotonic clock): the timers' time, which
   * stands still in a {@link suspend} and runs on through a {@link jump}, where a jump is the event
   * loop held up by work or load. Only on a clock made `{ awake: true }`: without it a jump is a
   * Windows sleep, which only a late timer tells.
   */
  readonly awake?: () => number;

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0), options: { awake?: boolean } = {}) {
    this.current = Math.ceil(start);
    if (options.awake) this.awake = () => this.current;
  }

  now(): number {
    return this.current + this.wallOffset;
  }

  /**
   * Sets the wall clock `ms` forward (negative: back) as NTP or a user does: `now()` moves at
   * once, while a timer waiting keeps its remaining delay (Node's timers run on the monotonic
   * clock, whatever the wall clock says) and nothing fires.
   */
  setWall(ms: number): void {
    this.wallOffset += Math.round(ms);
  }

  /**
   * The clock nobody sets: the timers' time, which {@link setWall} never moves. Like Linux's and
   * macOS's it stands still in a {@link suspend} and runs on through a {@link jump}.
   */
  monotonic(): number {
    return this.current;
  }

  /** The system's uptime: the timers' time and the sleeps they stood still through. */
  sinceBoot(): number {
    return this.current + this.slept;
  }

  /**
   * The machine sleeps `ms` as Linux and macOS do: the timers stand still (nothing fires, each
   * keeps its remaining delay) while the wall clock and the uptime run. ({@link jump} is a
   * Windows sleep: the timers' clock runs on and everything due fires late, at once.)
   */
  suspend(ms: number): void {
    this.wallOffset += Math.ceil(ms);
    this.slept += Math.ceil(ms);
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, Math.ceil(ms)), callback };
    this.timers.set(timer.id, timer);
    return { id: timer.id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete((handle as { id: number }).id);
  }

  /** Number of timers waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** When the next timer falls due, or null when none waits. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const timer of this.timers.values()) if (next === null || timer.at < next) next = timer.at;
    return next === null ? null : next + this.wallOffset;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.current + Math.ceil(ms);
    await flushPromises();
    for (;;) {
      const due = [...this.timers.values()]
        .filter((timer) => timer.at <= target)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers.delete(due.id);
      this.current = Math.max(this.current, due.at);
      due.callback();
      await flushPromises();
    }
    this.current = target;
    await flushPromises();
  }

  /**
   * Jumps time forward without firing anything on the way, then fires what is due: a Windows sleep
   * (a laptop lid closed), or on a clock with {@link awake} the event loop held up that long.
   */
  async jump(ms: number): Promise<void> {
    this.current += Math.ceil(ms);
    await this.advance(0);
  }
}

/** Lets queued promise callbacks (and a few rounds of their follow-ups) run. */
export async function flushPromises(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
