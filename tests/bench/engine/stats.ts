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

/** `1234.5` → `"1.23 s"`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
