import { uptime } from 'node:os';
import type { Clock, TimerHandle } from '../ports/clock';

/** The real clock. Timers keep the process alive while the engine waits; `engine.stop()` clears them. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout(handle: TimerHandle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
  // Linux: CLOCK_BOOTTIME, Windows: GetTickCount64, both counting sleeps (libuv's uv_uptime).
  sinceBoot: () => uptime() * 1_000,
};
