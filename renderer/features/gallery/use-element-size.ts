import { useLayoutEffect, useState, type RefObject } from 'react';

export interface ElementSize {
  readonly width: number;
  readonly height: number;
}

/** The content size of an element, kept current with a ResizeObserver (0 × 0 until shown). */
export function useElementSize(ref: RefObject<HTMLElement | null>): ElementSize {
  const [size, setSize] = useState<ElementSize>({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = (width: number, height: number): void => {
      // A hidden screen measures 0 × 0; keep the last real size so its layout survives.
      if (width === 0 && height === 0) return;
      setSize((current) =>
        current.width === width && current.height === height ? current : { width, height },
      );
    };
    update(element.clientWidth, element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const rect = entries[0]?.contentRect;
      if (rect) update(Math.round(rect.width), Math.round(rect.height));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
