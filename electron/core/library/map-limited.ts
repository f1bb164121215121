/**
 * A rebuild's reads in parallel, a few at a time (library/rebuild.ts), stopped by a cancel
 * between one file's reads and the next.
 */
import { throwIfAborted } from './archive/archive-errors';

/**
 * `map` over `items` with at most `limit` calls in flight; results keep the input order. An
 * aborted `signal` (checked before each item: OperationCancelledError) or a failed call stops
 * every worker before its next item, and the first failure is thrown once the calls in flight
 * have ended, so nothing of the work runs on after the caller has seen it fail. A `limit` that is
 * not a whole number of at least 1 is refused (RangeError): 0 ran no call and gave back a result
 * array of holes, typed as results.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`Calls at once must be a whole number of at least 1, not ${limit}.`);
  }
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length && !stopped; i = next++) {
      try {
        throwIfAborted(signal);
        results[i] = await map(items[i] as T);
      } catch (error) {
        stopped = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.min(limit, items.length) }, worker);
  const failed = (await Promise.allSettled(workers)).find((ended) => ended.status === 'rejected');
  if (failed) throw failed.reason;
  return results;
}
