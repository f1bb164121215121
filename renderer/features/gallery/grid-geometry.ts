/**
 * The grid's geometry and keyboard moves, as pure functions: how many columns fit a width, how
 * large a tile is, and which image a key press moves to.
 */

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
