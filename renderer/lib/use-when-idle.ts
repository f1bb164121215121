/**
 * Work for when the window is idle: requestIdleCallback with a deadline, or (where there is none)
 * the deadline itself.
 */
import { useEffect, useState } from 'react';

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

/**
 * True once the window has been idle since `wait` first held (see {@link whenIdle}), and at once
 * while `wait` is false; it stays true after. A tile drawn ahead of the view fetches its
 * thumbnail this way, so the tiles in view get the gallery protocol, the main process and the
 * decoder first.
 */
export function useWhenIdle(wait: boolean, timeoutMs: number): boolean {
  const [idle, setIdle] = useState(false);
  const ready = idle || !wait;
  useEffect(
    () => (ready ? undefined : whenIdle(() => setIdle(true), timeoutMs)),
    [ready, timeoutMs],
  );
  return ready;
}
