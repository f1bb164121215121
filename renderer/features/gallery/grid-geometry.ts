/**
 * The grid's geometry and keyboard moves, as pure functions: how many columns fit a width, how
 * large a tile is, where each row is, which rows a view shows, and which image a key press moves
 * to. Every row is one height (a tile and the gap below it), so a row's place is arithmetic: no
 * walk over the rows, and showing or scrolling the grid costs the same at any size (a general
 * virtualizer kept a measurement per row and rebuilt them all when the count or the tile size
 * changed: 357,143 rows at a million tasks, each time the gallery was shown).
 */

/** Space around the grid's rows inside the scroller, above, below and at the sides (CSS pixels). */
export const GRID_PADDING = 16;
/** Narrowest a tile may get before a column is dropped (CSS pixels). */
const MIN_TILE = 168;
/** Space between tiles (CSS pixels). */
const TILE_GAP = 8;

export interface GridLayout {
  readonly columns: number;
  /** Width and height of one (square) tile. */
  readonly tile: number;
  /** Height of a row including the gap below it. */
  readonly rowHeight: number;
}

/** As many columns as fit `width` with tiles at least {@link MIN_TILE} wide. */
export function gridLayout(width: number, minTile = MIN_TILE, gap = TILE_GAP): GridLayout {
  const usable = Math.max(0, Math.floor(width));
  const columns = Math.max(1, Math.floor((usable + gap) / (minTile + gap)));
  const tile = Math.max(1, Math.floor((usable - gap * (columns - 1)) / columns));
  return { columns, tile, rowHeight: tile + gap };
}

/** Where row `row` starts, in px from the top of the whole grid (lib/feed-scroll.ts's feed). */
export function rowTop(row: number, rowHeight: number): number {
  return GRID_PADDING + row * rowHeight;
}

/** The height of the whole grid of `rows` rows: the rows and the padding above and below. */
export function gridHeight(rows: number, rowHeight: number): number {
  return 2 * GRID_PADDING + Math.max(0, rows) * rowHeight;
}

/** The row at `offset` px from the grid's top (the first within the padding above), unclamped below. */
export function rowAt(offset: number, rowHeight: number): number {
  return rowHeight > 0 ? Math.max(0, Math.floor((offset - GRID_PADDING) / rowHeight)) : 0;
}

/** The rows in view, first to last (last < first when there is none). */
export interface RowSpan {
  readonly first: number;
  readonly last: number;
}

/**
 * The rows a view `viewport` px tall whose top is at `top` (both in the whole grid's terms)
 * shows tiles of, whole or in part: from the first whose tile reaches below the view's top to
 * the one its bottom is in. A row of which only the gap below its tiles is in view shows none
 * and is not counted: its tiles would ask for their thumbnails first (urgent-thumbnails.ts)
 * beside the screen's, for no one to see (a drag to the middle of the bench's gallery stopped
 * 4 px into such a gap). A view that shows no tile at all (only a gap and the padding) has the
 * row its top is in.
 */
export function rowsInView(
  top: number,
  viewport: number,
  rows: number,
  rowHeight: number,
): RowSpan {
  if (rows <= 0) return { first: 0, last: -1 };
  const at = Math.min(rows - 1, rowAt(top, rowHeight));
  const bottom = Math.max(0, top) + viewport;
  const last = Math.min(
    rows - 1,
    Math.max(at, rowHeight > 0 ? Math.ceil((bottom - GRID_PADDING) / rowHeight) - 1 : at),
  );
  // The grid's tiles are gridLayout's: rows `rowHeight` apart, TILE_GAP below each row's tiles.
  const inGap = top >= rowTop(at, rowHeight) + rowHeight - TILE_GAP;
  return { first: inGap && at < last ? at + 1 : at, last };
}

export interface GridMove {
  readonly index: number;
  readonly count: number;
  readonly columns: number;
  /** Whole rows visible at once (PageUp/PageDown move by this many). */
  readonly pageRows: number;
}

/** The index a navigation key moves to, or null when the key is not a move. */
export function moveFor(key: string, move: GridMove): number | null {
  const { index, count, columns, pageRows } = move;
  if (count === 0) return null;
  const last = count - 1;
  const column = index % columns;
  switch (key) {
    case 'ArrowRight':
      return Math.min(index + 1, last);
    case 'ArrowLeft':
      return Math.max(index - 1, 0);
    case 'ArrowDown':
      return index + columns <= last ? index + columns : lastRowHas(index, last, columns);
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'PageDown': {
      const target = index + columns * Math.max(1, pageRows);
      if (target <= last) return target;
      return lastRowHas(index, last, columns);
    }
    case 'PageUp': {
      const target = index - columns * Math.max(1, pageRows);
      return target >= 0 ? target : column;
    }
    default:
      return null;
  }
}

/** Down past the end: the same column of the last row, or its last image when that row is short. */
function lastRowHas(index: number, last: number, columns: number): number {
  const lastRow = Math.floor(last / columns);
  if (Math.floor(index / columns) >= lastRow) return index;
  return Math.min(lastRow * columns + (index % columns), last);
}
