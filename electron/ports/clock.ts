/** Opaque handle of a scheduled callback. */
export type TimerHandle = { readonly __timer: unique symbol } | object;

/**
 * Time and timers. The task engine and downloader take this port so tests can drive time with
 * a manual clock instead of waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `ms` milliseconds. */
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /**
   * Milliseconds on a clock nobody sets (not the wall clock: NTP or the user setting {@link now}
   * back or forward never moves it), on every OS (Node's performance clock, libuv's uv_hrtime):
   * how long something took is the difference of two readings. Whether it counts the machine's
   * sleeps differs by OS (Windows' does); read {@link awake} where that matters.
   */
  monotonic(): number;
  /**
   * Milliseconds on a clock that runs through the machine's sleeps and ignores the wall clock
   * being set (the system's uptime): against the timers, which stand still or fall due late in a
   * sleep, it tells a sleep from a wall clock set forward. Absent where none is known.
   */
  sinceBoot?(): number;
  /**
   * Milliseconds on a clock that stands still while the machine sleeps and runs on through
   * everything else (Linux's CLOCK_MONOTONIC, macOS's mach_absolute_time): against
   * {@link sinceBoot}, it tells a sleep from an event loop held up by work or load, which makes the
   * timers late just as a sleep does. Absent where none is known (Windows, whose counter runs on
   * through a sleep).
   */
  awake?(): number;
}
