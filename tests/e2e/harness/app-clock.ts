/**
 * The chromium host's clock for its "main process": the system's, moved ahead when a journey says
 * so. Timers keep their real delays; whatever reads the time after a move (the engine's next poll
 * checks its watch deadline) finds that much more has passed. A journey that waits on the app's
 * own timeout (a watch timeout is a minute at least) moves it instead of sleeping; the watch
 * timeout's own flow is a wired renderer test now (task-actions.test.tsx, "resumes a task that
 * timed out") over the engine's (engine-polling.test.ts).
 */
import type { Clock, TimerHandle } from '../../../electron/ports/clock';

export interface AppClock extends Clock {
  /** Moves `now()` `ms` ahead, for good (a restarted "main process" keeps the same clock). */
  advance(ms: number): void;
}

export function appClock(): AppClock {
  let ahead = 0;
  return {
    now: () => Date.now() + ahead,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout(handle: TimerHandle) {
      clearTimeout(handle as NodeJS.Timeout);
    },
    // Never moved by `advance`: what it moves is the wall clock's reading.
    monotonic: () => performance.now(),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`The clock only moves ahead: ${ms}`);
      ahead += ms;
    },
  };
}
