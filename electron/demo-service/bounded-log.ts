/**
 * The demo's request logs stay live (the same arrays, which tests read) but bounded: an embedded
 * demo polled every 3 s for days, or sent requests by another local user, must not grow without
 * end. Trimmed in batches so a push stays cheap.
 */
export const LOG_LIMIT = 10_000;

/** Adds `entry` to `list`, dropping the oldest entries past {@link LOG_LIMIT}. */
export function appendBounded<T>(list: T[], entry: T): void {
  list.push(entry);
  if (list.length > LOG_LIMIT + 1000) list.splice(0, list.length - LOG_LIMIT);
}
