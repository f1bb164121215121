import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../ports/clock';

/**
 * Node's timers (node:timers, whatever the global scope holds: a DOM's timers cannot unref), unref'd: a timer that only bounds how long something may be held (an image
 * waiting for Undo, a file slot nobody reads from) never keeps the process alive.
 */
export const processTimers: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  monotonic: () => performance.now(),
};

/**
 * Lets what waits in the event loop run (an Undo asked over IPC, the window's next request)
 * before going on: a long loop over many items awaits this now and then, so the main process
 * answers meanwhile.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
