/**
 * True once the window has been idle since `wait` first held (requestIdleCallback, at most
 * `timeoutMs` later), and at once while `wait` is false; it stays true after. A tile drawn ahead
 * of the view fetches its thumbnail this way, so the tiles in view get the gallery protocol, the
 * main process and the decoder first.
 */
import { useEffect, useState } from 'react';

export function useWhenIdle(wait: boolean, timeoutMs: number): boolean {
  const [idle, setIdle] = useState(!wait);
  const ready = idle || !wait;
  useEffect(() => {
    if (ready) return undefined;
    const done = () => setIdle(true);
    const { requestIdleCallback: request, cancelIdleCallback: cancel } = window;
    if (typeof request !== 'function' || typeof cancel !== 'function') {
      const timer = window.setTimeout(done, 0);
      return () => window.clearTimeout(timer);
    }
    const handle = request.call(window, done, { timeout: timeoutMs });
    return () => cancel.call(window, handle);
  }, [ready, timeoutMs]);
  return ready;
}
