/**
 * Notices that the machine slept, for the processes no system tells (the CLI's `watch` and
 * `resume`, the MCP server; the app hears powerMonitor's `resume` as well): while tasks poll or
 * images download (engine-work.ts), a tick every third of the poll interval on the clock's timers.
 * In a sleep the timers stand still (Linux, macOS) or fall due late (Windows) while the system's
 * uptime runs on: the tick comes with the uptime far past the time it was due, and polls and
 * downloads wake as on the app's `resume`.
 *
 * Not the wall clock: one set forward (NTP, the user) is no sleep, and a wake then would place
 * tasks as if their last poll were long ago, sooner than an interval after it. Without an uptime
 * (a clock that has none) nothing is noticed.
 *
 * Not a late tick alone either, where the clock knows the time the machine was awake (Linux,
 * macOS: the clock's `awake`): an event loop held up by work or a loaded machine makes the tick
 * late too, and a wake then ended each poll and download out for an interval, which went out
 * again (a large image fetched twice; a test at load 20 saw its one poll sent twice). A sleep is
 * the uptime running on while the awake clock stood still; held up, both ran. Windows has no such
 * clock, its timers fall due late through a sleep, and a tick late by more than the slack is read
 * as one there.
 */
import type { Clock, TimerHandle } from '../../ports/clock';

export class SleepWatch {
  private timer: TimerHandle | null = null;
  /** The uptime and the awake clock when the tick was set. */
  private from = { up: 0, awake: 0 };
  private readonly tickMs: number;

  constructor(
    private readonly clock: Clock,
    /** How late a tick may come before it means a sleep: the poll interval. */
    private readonly slackMs: number,
    /** Called once per sleep noticed. */
    private readonly onSleep: () => void,
    /** Whether work a sleep may cut is under way (polls, downloads): it ticks only then. */
    private readonly busy: () => boolean,
  ) {
    this.tickMs = Math.max(1, Math.round(slackMs / 3));
  }

  /** Ticks from now on while tasks poll (a no-op while it ticks). */
  keep(): void {
    if (this.timer === null && this.clock.sinceBoot && this.busy()) this.schedule();
  }

  /** Counts from now: a wake was just handled, and the tick in progress is not late for it. */
  restart(): void {
    this.stop();
    this.keep();
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.from = { up: this.uptime(), awake: this.awake() };
    this.timer = this.clock.setTimeout(() => this.tick(), this.tickMs);
  }

  private tick(): void {
    this.timer = null;
    const up = this.uptime() - this.from.up;
    // Without an awake clock, the time the timer was set for: a late tick is read as a sleep.
    const awake = this.clock.awake ? this.awake() - this.from.awake : this.tickMs;
    if (up - awake > this.slackMs) this.onSleep();
    this.keep();
  }

  private awake(): number {
    return this.clock.awake?.() ?? 0;
  }

  private uptime(): number {
    return this.clock.sinceBoot?.() ?? 0;
  }
}
