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
}
