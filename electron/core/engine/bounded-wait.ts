/** A wait with an end: what a caller must never wait for forever (a write that may hang). */
import type { Clock } from '../../ports/clock';

/**
 * `work`'s answer, or `late()`'s once `ms` have passed on `clock` first. The timer is cleared as
 * soon as either comes, so a wait that ends in time leaves nothing behind.
 */
export function within<T>(clock: Clock, ms: number, work: Promise<T>, late: () => T): Promise<T> {
  let giveUp = (): void => undefined;
  const timedOut = new Promise<T>((resolve) => (giveUp = () => resolve(late())));
  const timer = clock.setTimeout(giveUp, ms);
  return Promise.race([work, timedOut]).finally(() => clock.clearTimeout(timer));
}
