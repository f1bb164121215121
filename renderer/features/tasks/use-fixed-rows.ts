/**
 * The window of a list of equal-height rows: which rows are in (or near) the viewport, where
 * each one sits, and how to bring a row into view. Every row has the same height, so this is
 * arithmetic on the scroll offset: its cost does not grow with the number of rows. (A general
 * virtualizer keeps a measurement per row and rebuilds all of them when the count or the keys
 * change: ~35 ms at 100,000 tasks on every page load and live update.)
 */
import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/** A row of the window: its index and its top edge in the feed, in px. */
export interface FixedRow {
  readonly index: number;
  readonly start: number;
}

export interface FixedRowsOptions {
  readonly scroller: RefObject<HTMLElement | null>;
  readonly count: number;
  readonly rowHeight: number;
  /** Rows rendered beyond the visible ones, in each direction. */
  readonly overscan: number;
}

export interface FixedRows {
  readonly rows: readonly FixedRow[];
  readonly totalSize: number;
  /** Scrolls the least distance that shows the whole row (nothing when it is already shown). */
  scrollToIndex(index: number): void;
}

interface Viewport {
  readonly top: number;
  readonly height: number;
}

/** The rows a viewport touches: [startRow, endRow). Scrolling within a row changes nothing. */
interface Span {
  readonly startRow: number;
  readonly endRow: number;
}

/** The rows a viewport touches, whole or in part. */
export function spanOf(viewport: Viewport, rowHeight: number): Span {
  if (rowHeight <= 0) return { startRow: 0, endRow: 0 };
  const top = Math.max(0, viewport.top);
  const startRow = Math.floor(top / rowHeight);
  return {
    startRow,
    endRow: Math.max(startRow + 1, Math.ceil((top + viewport.height) / rowHeight)),
  };
}

/** The first and last row index to render (last < first when there is none). */
export function visibleRange(
  span: Span,
  count: number,
  overscan: number,
): { first: number; last: number } {
  if (count <= 0) return { first: 0, last: -1 };
  const firstVisible = Math.min(count - 1, span.startRow);
  const lastVisible = Math.min(count - 1, Math.max(firstVisible, span.endRow - 1));
  return {
    first: Math.max(0, firstVisible - overscan),
    last: Math.min(count - 1, lastVisible + overscan),
  };
}

/** The scroll offset that shows row `index` whole with the least movement, or null if it is. */
export function offsetToShow(index: number, viewport: Viewport, rowHeight: number): number | null {
  const start = index * rowHeight;
  const end = start + rowHeight;
  if (start < viewport.top) return start;
  if (end <= viewport.top + viewport.height) return null;
  // A row taller than the viewport is shown from its top.
  const offset = Math.max(0, Math.min(start, end - viewport.height));
  return offset === viewport.top ? null : offset;
}

export function useFixedRows({
  scroller,
  count,
  rowHeight,
  overscan,
}: FixedRowsOptions): FixedRows {
  // Only the span is state: a scroll that stays within the same rows renders nothing.
  const [span, setSpan] = useState<Span>({ startRow: 0, endRow: 1 });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const read = (): void => {
      const next = spanOf({ top: element.scrollTop, height: element.clientHeight }, rowHeight);
      setSpan((known) =>
        known.startRow === next.startRow && known.endRow === next.endRow ? known : next,
      );
    };
    read();
    element.addEventListener('scroll', read, { passive: true });
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', read);
      observer.disconnect();
    };
  }, [scroller, rowHeight]);

  const { first, last } = visibleRange(span, count, overscan);
  const rows: FixedRow[] = [];
  for (let index = first; index <= last; index += 1) rows.push({ index, start: index * rowHeight });

  const scrollToIndex = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (!element) return;
      const view = { top: element.scrollTop, height: element.clientHeight };
      const offset = offsetToShow(index, view, rowHeight);
      if (offset !== null) element.scrollTo({ top: offset });
    },
    [scroller, rowHeight],
  );

  return { rows, totalSize: Math.max(0, count) * rowHeight, scrollToIndex };
}
