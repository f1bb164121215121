/**
 * The window of the task feed's rows: which rows are in (or near) the viewport, where each one
 * sits, and how to bring a row into view. A task's row has one height; a batch's card is as tall
 * as its results need (batch-geometry.ts), and only loaded rows can be batches: the places of
 * the loaded rows are a running sum, those of the rows past them arithmetic, and finding the row
 * at an offset is a binary search. (A general virtualizer keeps a measurement per row and rebuilds
 * all of them when the count or the keys change: ~35 ms at 100,000 tasks on every page load and
 * live update.)
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { drawnHeight, drawnStart, feedRatio, feedTopOf, scrollFeedTo } from '../../lib/feed-scroll';

/** A row of the window: its index, its top edge in the feed and its height, in px. */
export interface FixedRow {
  readonly index: number;
  readonly start: number;
  readonly height: number;
}

/** Where every row of the feed is. */
export interface RowPlaces {
  readonly count: number;
  /** The feed's height. */
  readonly total: number;
  startOf(row: number): number;
  heightOf(row: number): number;
  /** The row at `offset` px from the feed's top (the first or the last past either end). */
  rowAt(offset: number): number;
}

/**
 * The places of `count` rows: the first ones of the heights in `heads` (the loaded groups), every
 * other one `rowHeight` tall.
 */
export function rowPlaces(heads: readonly number[], count: number, rowHeight: number): RowPlaces {
  const known = Math.min(heads.length, count);
  const starts = new Float64Array(known + 1);
  for (let row = 0; row < known; row += 1) starts[row + 1] = (starts[row] ?? 0) + (heads[row] ?? 0);
  const headsEnd = starts[known] ?? 0;
  const startOf = (row: number): number =>
    row <= known ? (starts[Math.max(0, row)] ?? 0) : headsEnd + (row - known) * rowHeight;
  const heightOf = (row: number): number => (row < known ? (heads[row] ?? rowHeight) : rowHeight);
  const rowAt = (offset: number): number => {
    if (count <= 0 || offset <= 0) return 0;
    if (offset >= headsEnd) {
      const past = rowHeight > 0 ? Math.floor((offset - headsEnd) / rowHeight) : 0;
      return Math.min(count - 1, known + past);
    }
    let low = 0;
    let high = known - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  return { count, total: startOf(count), startOf, heightOf, rowAt };
}

export interface FixedRowsOptions {
  readonly scroller: RefObject<HTMLElement | null>;
  readonly places: RowPlaces;
  /** Rows rendered beyond the visible ones, in each direction. */
  readonly overscan: number;
  /**
   * The viewport's height (px) the first render draws the rows for, before the scroller is
   * measured (store/feed-box-memory.ts); 0 draws one row. The measure in the same commit draws again
   * at once when the scroller is not that tall.
   */
  readonly initialViewport?: number;
  /** Told the scroller's height whenever it was measured different. */
  readonly onViewport?: (height: number) => void;
}

export interface FixedRows {
  /** The rows to render, each `start` where it is drawn in the box of {@link totalSize}. */
  readonly rows: readonly FixedRow[];
  /** The height of the box the rows are drawn in (lib/feed-scroll.ts: at most a page's limit). */
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
export function spanOf(viewport: Viewport, places: RowPlaces): Span {
  if (places.count <= 0 || places.total <= 0) return { startRow: 0, endRow: 0 };
  const top = Math.max(0, viewport.top);
  const startRow = places.rowAt(top);
  const bottom = top + viewport.height;
  const last = viewport.height > 0 ? places.rowAt(Math.ceil(bottom) - 1) : startRow;
  return { startRow, endRow: Math.max(startRow + 1, last + 1) };
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
export function offsetToShow(index: number, viewport: Viewport, places: RowPlaces): number | null {
  const start = places.startOf(index);
  const end = start + places.heightOf(index);
  if (start < viewport.top) return start;
  if (end <= viewport.top + viewport.height) return null;
  // A row taller than the viewport is shown from its top.
  const offset = Math.max(0, Math.min(start, end - viewport.height));
  return offset === viewport.top ? null : offset;
}

/** The span in view and, for a feed drawn scaled (lib/feed-scroll.ts), the offset it shows. */
interface Shown extends Span {
  readonly top: number;
  readonly viewport: number;
}

/** What a scroller `viewport` px tall showing feed offset `top` shows. */
function shownAt(top: number, viewport: number, places: RowPlaces): Shown {
  const span = spanOf({ top, height: viewport }, places);
  const scaled = feedRatio(places.total, viewport) !== 1;
  return { ...span, top: scaled ? top : 0, viewport: scaled ? viewport : 0 };
}

export function useFixedRows({
  scroller,
  places,
  overscan,
  initialViewport = 0,
  onViewport,
}: FixedRowsOptions): FixedRows {
  // Only the span is state: a scroll that stays within the same rows renders nothing, unless the
  // feed is drawn scaled, where each scroll moves the rows drawn near the view.
  const [span, setSpan] = useState<Shown>(() =>
    initialViewport > 0
      ? shownAt(0, initialViewport, places)
      : { startRow: 0, endRow: 1, top: 0, viewport: 0 },
  );
  const measured = useRef(-1);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const read = (): void => {
      const viewport = element.clientHeight;
      const shown = shownAt(feedTopOf(element, places.total), viewport, places);
      if (viewport !== measured.current) {
        measured.current = viewport;
        onViewport?.(viewport);
      }
      setSpan((known) =>
        known.startRow === shown.startRow &&
        known.endRow === shown.endRow &&
        known.top === shown.top &&
        known.viewport === shown.viewport
          ? known
          : shown,
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
  }, [scroller, places, onViewport]);

  const { first, last } = visibleRange(span, places.count, overscan);
  const rows: FixedRow[] = [];
  for (let index = first; index <= last; index += 1) {
    const start = drawnStart(places.startOf(index), span.top, places.total, span.viewport);
    rows.push({ index, start, height: places.heightOf(index) });
  }

  const scrollToIndex = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (!element) return;
      const view = { top: feedTopOf(element, places.total), height: element.clientHeight };
      const offset = offsetToShow(index, view, places);
      if (offset !== null) scrollFeedTo(element, places.total, offset);
    },
    [scroller, places],
  );

  return { rows, totalSize: drawnHeight(places.total), scrollToIndex };
}
