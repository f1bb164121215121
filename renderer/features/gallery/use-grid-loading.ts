/**
 * What the gallery grid loads as it scrolls: the next page before the loaded end, and a page by
 * position when the view has moved far below it (a scrollbar dragged down).
 */
import { useEffect, useRef } from 'react';
import type { GalleryJump } from '../../store/gallery-browse';
import type { GalleryGridProps } from './gallery-grid-props';

/** Ask for the next page this many rows before the end. */
const LOAD_AHEAD_ROWS = 6;
/** Rows loaded on either side of the view when a page is loaded by position. */
const JUMP_MARGIN_ROWS = 4;
/** The most a page by position asks for (the contract allows 500). */
const MAX_JUMP_PAGE = 500;

export interface GridView {
  /** The rows in view (not those drawn around them). */
  readonly firstRow: number;
  readonly lastRow: number;
  readonly columns: number;
  /** Every place in the grid, loaded or not. */
  readonly count: number;
  /** Rows of images loaded from the top. */
  readonly headRows: number;
}

/**
 * The position to load a page at for the rows in view, or null when the page loaded by position
 * already holds them.
 */
function jumpWanted(view: GridView, jump: GalleryJump | null): number | null {
  const { firstRow, lastRow, columns, count } = view;
  const first = firstRow * columns;
  const last = Math.min(count, (lastRow + 1) * columns);
  if (jump && first >= jump.offset && last <= jump.offset + jump.items.length) return null;
  const offset = Math.max(0, first - JUMP_MARGIN_ROWS * columns);
  // Asked and answered (a short page: the gallery shrank meanwhile); the next count will tell.
  return jump?.offset === offset ? null : offset;
}

type LoadingProps = Pick<
  GalleryGridProps,
  'hasMore' | 'loadingMore' | 'onLoadMore' | 'jump' | 'jumpLoading' | 'onLoadAt' | 'activeKey'
>;

export function useGridLoading(view: GridView, props: LoadingProps): void {
  const { hasMore, loadingMore, onLoadMore, jump = null, jumpLoading = null, onLoadAt } = props;
  // Read when a page is asked for, not a reason to ask again.
  const active = useRef(props.activeKey);
  active.current = props.activeKey;
  const { firstRow, lastRow, columns, headRows } = view;
  const far = firstRow > headRows + LOAD_AHEAD_ROWS;
  useEffect(() => {
    if (hasMore && !far && !loadingMore && lastRow >= headRows - 1 - LOAD_AHEAD_ROWS) onLoadMore();
  }, [hasMore, far, loadingMore, lastRow, headRows, onLoadMore]);
  const wanted = far ? jumpWanted(view, jump) : null;
  // A page by position holds the rows in view and a margin above and below, no more: a drag
  // asks for one at every frame that moved away, each read, sent and drawn while the hand moves.
  const jumpLimit = Math.min(
    MAX_JUMP_PAGE,
    (lastRow - firstRow + 1 + 2 * JUMP_MARGIN_ROWS) * columns,
  );
  useEffect(() => {
    // A new page by position when the view has moved away from the one on its way (the latest
    // answer wins): waiting for a stale one cost a round trip at the end of every drag.
    const near = jumpLoading !== null && Math.abs(jumpLoading - (wanted ?? 0)) < columns * 2;
    if (wanted !== null && !near) onLoadAt?.(wanted, jumpLimit, active.current);
  }, [wanted, jumpLoading, columns, onLoadAt, jumpLimit]);
}
