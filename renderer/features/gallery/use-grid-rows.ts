/**
 * The window of the gallery grid's rows: which rows are in view and drawn around it, and where
 * each is drawn, from the scroller's offset by arithmetic (grid-geometry.ts: every row is one
 * height). Nothing here walks the rows, so the grid shown or scrolled at a million tasks (357,143
 * rows) costs what it costs at a hundred. The grid may be taller than a page can lay out
 * (lib/feed-scroll.ts): offsets are in the whole grid's terms, the scroller's mapped onto them.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import {
  drawnHeight,
  drawnStart,
  feedRatio,
  toFeedOffset,
  toScrollerOffset,
} from '../../lib/feed-scroll';
import { gridHeight, rowsInView, rowTop, type RowSpan } from './grid-geometry';
import type { ViewOffset } from './view-motion';

/** Rows drawn beyond the ones in view, above and below. */
const OVERSCAN_ROWS = 2;

interface GridRowsOptions {
  readonly scrollerRef: RefObject<HTMLElement | null>;
  /** Rows laid out (none while the grid has no size). */
  readonly rows: number;
  readonly rowHeight: number;
  /** A row drawn wherever the view is (the one holding the tab stop), or -1. */
  readonly pinned: number;
}

/** A row to draw: its index and its top in the box the rows are drawn in (px). */
interface DrawnRow {
  readonly index: number;
  readonly start: number;
}

interface GridRows {
  /** The rows to draw, in order: those in view, {@link OVERSCAN_ROWS} around, and the pinned one. */
  readonly rows: readonly DrawnRow[];
  /** The rows in view. */
  readonly span: RowSpan;
  /** The whole grid's height. */
  readonly total: number;
  /** The height of the box the rows are drawn in (at most a page's limit). */
  readonly drawnTotal: number;
  /** The offset the drawing was made for. */
  readonly feedTop: number;
  /** The offset shown now, set at each scroll (read between drawings: view-motion.ts). */
  readonly view: ViewOffset;
}

/** What a drawing depends on: the rows in view and, for a grid drawn scaled, the offset. */
interface Shown extends RowSpan {
  readonly top: number;
  /** The viewport the offset was mapped with (0 when the grid is not drawn scaled). */
  readonly viewport: number;
}

const NOTHING_SHOWN: Shown = { first: 0, last: -1, top: 0, viewport: 0 };

function sameShown(a: Shown, b: Shown): boolean {
  return a.first === b.first && a.last === b.last && a.top === b.top && a.viewport === b.viewport;
}

/** The rows to draw: those in view and around them, and the pinned one wherever it is. */
function drawnIndexes(span: RowSpan, rows: number, pinned: number): number[] {
  if (span.last < span.first) return [];
  const first = Math.max(0, span.first - OVERSCAN_ROWS);
  const last = Math.min(rows - 1, span.last + OVERSCAN_ROWS);
  const indexes: number[] = [];
  if (pinned >= 0 && pinned < first) indexes.push(pinned);
  for (let row = first; row <= last; row += 1) indexes.push(row);
  if (pinned > last && pinned < rows) indexes.push(pinned);
  return indexes;
}

export function useGridRows({ scrollerRef, rows, rowHeight, pinned }: GridRowsOptions): GridRows {
  const total = gridHeight(rows, rowHeight);
  const [shown, setShown] = useState<Shown>(NOTHING_SHOWN);
  const view = useRef<{ scrollOffset: number }>({ scrollOffset: 0 }).current;

  // A scroll that stays within the same rows draws nothing, unless the grid is drawn scaled,
  // where the rows near the view move with each scrolled pixel.
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const read = (): void => {
      const height = scroller.clientHeight;
      // Hidden (another screen is shown): nothing to read, the last reading stands till it shows.
      if (height === 0) return;
      const top = toFeedOffset(scroller.scrollTop, total, height);
      view.scrollOffset = top;
      const scaled = feedRatio(total, height) !== 1;
      const next = {
        ...rowsInView(top, height, rows, rowHeight),
        top,
        viewport: scaled ? height : 0,
      };
      // Not drawn scaled, the offset a drawing was made for changes nothing drawn.
      setShown((known) =>
        sameShown(known, scaled ? next : { ...next, top: known.top }) ? known : next,
      );
    };
    read();
    scroller.addEventListener('scroll', read, { passive: true });
    // Shown again, or another height: the view is read again.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    observer?.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', read);
      observer?.disconnect();
    };
  }, [scrollerRef, rows, rowHeight, total, view]);

  const near = (index: number): boolean =>
    index >= shown.first - OVERSCAN_ROWS && index <= shown.last + OVERSCAN_ROWS;
  const drawn = drawnIndexes(shown, rows, pinned).map((index) => {
    const start = rowTop(index, rowHeight);
    // Drawn scaled, a pinned row far from the view is drawn where the scrollbar shows it (inside
    // the box: drawn as far as it is in the whole grid, it made the page scroll past the box).
    return near(index)
      ? { index, start: drawnStart(start, shown.top, total, shown.viewport) }
      : { index, start: toScrollerOffset(start, total, shown.viewport) };
  });
  return {
    rows: drawn,
    span: { first: shown.first, last: shown.last },
    total,
    drawnTotal: drawnHeight(total),
    feedTop: shown.top,
    view,
  };
}
