import { clearTimeout, setTimeout } from 'node:timers';
import type { Clock } from '../../ports/clock';

/**
 * Node's timers (node:timers, whatever the global scope holds: a DOM's timers cannot unref), unref'd: a timer that only bounds how long something may be held (an image
 * waiting for Undo, a file slot nobody reads from) never keeps the process alive.
 */
export const processTimers: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
