/**
 * Retry delays. Exponential from the poll interval, capped, with ±20 % jitter so that tasks
 * hit by the same outage do not come back in one burst. A server's Retry-After is a floor.
 */
export interface BackoffOptions {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly random: () => number;
}

/** Delay before retry number `failures` (1 = first retry). */
export function backoffDelay(
  failures: number,
  options: BackoffOptions,
  retryAfterMs?: number,
): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 16);
  const raw = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  const jittered = raw * (0.8 + 0.4 * options.random());
  const floor = retryAfterMs === undefined ? 0 : retryAfterMs;
  // Honour Retry-After exactly, plus a little jitter on top so synchronised clients spread out.
  return Math.round(
    Math.max(jittered, floor + (floor > 0 ? options.baseMs * 0.1 * options.random() : 0)),
  );
}
