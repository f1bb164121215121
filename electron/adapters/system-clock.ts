import { uptime } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Clock, TimerHandle } from '../ports/clock';

const STANDS_STILL_ASLEEP: ReadonlySet<NodeJS.Platform> = new Set(['linux', 'darwin']);

/** The real clock. Timers keep the process alive while the engine waits; `engine.stop()` clears them. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout(handle: TimerHandle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
  // uv_hrtime: never set; CLOCK_MONOTONIC, mach_absolute_time, QueryPerformanceCounter.
  monotonic: () => performance.now(),
  // Linux: CLOCK_BOOTTIME, Windows: GetTickCount64, both counting sleeps (libuv's uv_uptime).
  sinceBoot: () => uptime() * 1_000,
  // Node's performance clock is libuv's uv_hrtime: CLOCK_MONOTONIC on Linux, mach_absolute_time on macOS, both standing still
  // through a sleep. Windows' QueryPerformanceCounter runs on through one: no such clock there.
  ...(STANDS_STILL_ASLEEP.has(process.platform) ? { awake: () => performance.now() } : {}),
};
