import type { Clock, TimerHandle } from '../ports/clock';

/** The real clock. Timers are unref'd so a pending poll never keeps a finished CLI alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout(handle: TimerHandle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};
