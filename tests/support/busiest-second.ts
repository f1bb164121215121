/** Most events in any one-second window of `times` (ms, ascending): a rate's worst second. */
export function busiestSecond(times: readonly number[]): number {
  let most = 0;
  for (const [n, start] of times.entries()) {
    let count = 0;
    for (let m = n; m < times.length && times[m]! < start + 1_000; m += 1) count += 1;
    most = Math.max(most, count);
  }
  return most;
}
