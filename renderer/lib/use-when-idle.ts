/**
 * Work for when the window is idle: requestIdleCallback with a deadline, or (where there is none)
 * the deadline itself.
 */
/** Runs `callback` once the window is idle, at most `timeoutMs` later; returns the cancel. */
export function whenIdle(callback: () => void, timeoutMs: number): () => void {
  const { requestIdleCallback: request, cancelIdleCallback: cancel } = window;
  if (typeof request !== 'function' || typeof cancel !== 'function') {
    const timer = window.setTimeout(callback, timeoutMs);
    return () => window.clearTimeout(timer);
  }
  const handle = request.call(window, callback, { timeout: timeoutMs });
  return () => cancel.call(window, handle);
}
