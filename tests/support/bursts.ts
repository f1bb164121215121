/** How a burst of events is counted. */

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
