/**
 * Runs the real core on the manual clock, so what the fault suites judge (when each request
 * reached the service, how many fell in a window) is the app's own timing and not the machine's
 * load. Time moves only when the core is idle: no request of ours in flight, no task in the
 * middle of a poll or a download. Then it jumps to the next timer, whose requests all reach the service, which
 * reads the same clock, at exactly that time. A loaded machine only makes a run take longer.
 */
import type { TaskEngine } from '../../../electron/core/engine/task-engine';
import type { Clock } from '../../../electron/ports/clock';
import type { FetchLike } from '../../../electron/ports/http';
import { ManualClock } from '../../fakes/manual-clock';

/** Turns of the event loop {@link until} looks at before it looks once a millisecond. */
const EAGER_TURNS = 16;

/**
 * Resolves once `condition` holds: at each of the next {@link EAGER_TURNS} turns of the event loop
 * (what the current moment started mostly ends within them), then once a millisecond. Looking at
 * every turn for as long as a request was in flight kept the thread spinning while it waited on
 * the service and the disk, the CPU the other worker and the service needed: task-updates-load
 * took 36.5 s of CPU so and 22.8 s looking once a millisecond (core65, load 20).
 */
export async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn += 1) {
    await new Promise<void>((resolve) =>
      turn < EAGER_TURNS ? setImmediate(resolve) : setTimeout(resolve, 1),
    );
  }
}

export class ClockDriver {
  /** The test's handle on time. */
  readonly clock = new ManualClock();
  /**
   * The clock the core and the service read: whole milliseconds, as Node's timers (which truncate
   * a delay) and `Date.now()` give them; the history stores dates as whole numbers.
   */
  readonly coreClock: Clock = {
    now: () => this.clock.now(),
    setTimeout: (callback, ms) => this.clock.setTimeout(callback, Math.trunc(ms)),
    clearTimeout: (handle) => this.clock.clearTimeout(handle),
    monotonic: () => this.clock.monotonic(),
  };
  private inFlight = 0;
  private watched: { engine: TaskEngine; ids: readonly string[] } | null = null;

  /** Node's fetch, counted, for the core under test. */
  readonly fetch: FetchLike = async (url, init) => {
    this.inFlight += 1;
    try {
      return await fetch(url, init);
    } finally {
      this.inFlight -= 1;
    }
  };

  /** The engine and tasks whose polls must be finished before time moves. */
  watch(engine: TaskEngine, ids: readonly string[]): void {
    this.watched = { engine, ids };
  }

  idle(): boolean {
    const { engine, ids } = this.watched ?? { ids: [] };
    if (this.inFlight > 0 || !engine) return this.inFlight === 0;
    return ids.every((id) => {
      const live = engine.live(id);
      return !live.polling && live.downloads === 0;
    });
  }

  /** Waits for the core to finish what the current moment started. */
  settle(): Promise<void> {
    return until(() => this.idle());
  }

  /** Moves to `at`, through every timer on the way, each run to its end. */
  async advanceTo(at: number): Promise<void> {
    await this.settle();
    for (
      let next = this.clock.nextDue();
      next !== null && next <= at;
      next = this.clock.nextDue()
    ) {
      await this.clock.advance(next - this.clock.now());
      await this.settle();
    }
    await this.clock.advance(Math.max(0, at - this.clock.now()));
    await this.settle();
  }

  /**
   * Moves from timer to timer until `done` holds.
   * @throws when it does not by `limitMs` of clock time (the run is stuck, not slow).
   */
  async runUntil(done: () => boolean, limitMs: number): Promise<void> {
    const end = this.clock.now() + limitMs;
    for (;;) {
      await this.settle();
      if (done()) return;
      const next = this.clock.nextDue();
      if (next === null) throw new Error('nothing left to wait for, and not done');
      if (next > end) throw new Error(`not done after ${limitMs} ms of clock time`);
      await this.clock.advance(next - this.clock.now());
    }
  }
}
