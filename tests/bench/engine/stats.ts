/** Small statistics helpers for the engine benchmarks. */

/** The value at fraction `q` (0..1) of the sorted values, nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * The most events in any window of `windowMs` (sliding, each window starting at an event): how a
 * burst is counted by the bench, the poll planner's unit tests and the fault suites alike.
 */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/** `1234.5` → `"1.23 s"`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
