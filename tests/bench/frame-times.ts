/**
 * A page's frame times (requestAnimationFrame deltas) summed up, for the bench rows that judge a
 * page by its long frames (ui, updates).
 */

/** Over 16.7 ms: the page's timer is coarsened to 0.1 ms, so a 16.67 ms frame reads up to 16.8. */
export const LONG_FRAME_MS = 17;

export interface Frames {
  readonly frames: number;
  readonly long: number;
  readonly pct: number;
  readonly p95: number;
  readonly max: number;
}

export function frames(deltas: readonly number[]): Frames {
  const sorted = [...deltas].sort((a, b) => a - b);
  const long = deltas.filter((delta) => delta > LONG_FRAME_MS).length;
  return {
    frames: deltas.length,
    long,
    pct: deltas.length === 0 ? 100 : (100 * long) / deltas.length,
    p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    max: sorted.at(-1) ?? 0,
  };
}
