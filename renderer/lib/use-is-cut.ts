import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Whether the text in `ref` (or in one of `within` its descendants) is cut by its box (one line
 * with an ellipsis): measured after every render and whenever the box changes size, so a
 * "Read all" shows only when something is hidden.
 */
export function useIsCut(ref: RefObject<HTMLElement | null>, within?: string): boolean {
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = (): void => {
      const boxes = [element, ...(within ? element.querySelectorAll<HTMLElement>(within) : [])];
      setCut(boxes.some((box) => box.scrollWidth > box.clientWidth + 1));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  });
  return cut;
}
