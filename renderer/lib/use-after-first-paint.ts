/**
 * True once a frame has been painted after `ready` first became true (a task queued from a
 * requestAnimationFrame callback runs after that frame's paint). A list draws only what is on
 * screen in its first frame and fills in the rest after it, so the first frame comes sooner.
 */
import { useEffect, useState } from 'react';

export function useAfterFirstPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
}
