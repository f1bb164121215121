/**
 * A request's time limit on a given clock: the core's, so a test on a manual clock moves a
 * request to its limit instead of waiting for it. Without a clock, `AbortSignal.timeout` itself.
 */
import type { Clock } from '../../ports/clock';

/** A signal that aborts at the limit, and the way to let its timer go once the work is done. */
export interface TimeLimit {
  readonly signal: AbortSignal;
  clear(): void;
}

/**
 * Aborts after `ms` on `clock` with the `TimeoutError` that `AbortSignal.timeout` gives on the
 * real clock, so what reads the reason sees the same error either way.
 */
export function timeLimit(ms: number, clock?: Clock): TimeLimit {
  if (!clock) return { signal: AbortSignal.timeout(ms), clear: () => undefined };
  const controller = new AbortController();
  const timer = clock.setTimeout(() => {
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  return { signal: controller.signal, clear: () => clock.clearTimeout(timer) };
}
