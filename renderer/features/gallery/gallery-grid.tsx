import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  type KeyboardEvent,
} from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { t } from '../../i18n';
import { hasSelection, isSelected, type ClickModifiers, type Selection } from '../../lib/selection';
import { itemKey } from '../../store/gallery-list-model';
import { ErrorBoundary, errorDetail } from '../../components/error-boundary';
import type { GalleryJump } from '../../store/gallery-browse';
import { GalleryTile, PlaceholderTile, UnreadableTile } from './gallery-tile';
import { menuKey, type MenuRequest } from './gallery-context-menu';
import { logicalArrow } from '../../lib/direction';
import { gridLayout, moveFor } from './grid-geometry';
import { useElementSize } from './use-element-size';
import { useGridFocus, type FocusRequest } from './use-grid-focus';

/** Space around the grid inside the scroller (CSS pixels). */
const GRID_PADDING = 16;
/** Rows rendered beyond the visible ones, above and below. */
const OVERSCAN_ROWS = 2;
/** Ask for the next page this many rows before the end. */
const LOAD_AHEAD_ROWS = 6;

export interface GalleryGridProps {
  readonly items: readonly GalleryItem[];
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  /** The tile that holds the grid's one tab stop. */
  readonly activeKey: string | null;
  readonly onActiveChange: (key: string) => void;
  readonly focusRequest: FocusRequest | null;
  readonly onOpen: (key: string) => void;
  readonly onDelete: (item: GalleryItem) => void;
  readonly onFavourite: (item: GalleryItem) => void;
  readonly onRetry: (item: GalleryItem) => void;
  readonly onStartDrag: (item: GalleryItem) => void;
  readonly onLoadMore: () => void;
  readonly describedBy?: string;
  /** How many images the filters match (the scrollbar spans them all), when known. */
  readonly total?: number | null;
  /** Images loaded by position, far below the ones loaded from the top. */
  readonly jump?: GalleryJump | null;
  /** Position a page is being loaded at, or null. */
  readonly jumpLoading?: number | null;
  /** Loads `limit` images from `offset` (the rows in view and a margin around them). */
  readonly onLoadAt?: (offset: number, limit: number) => void;
  /** Narrowest a tile may get (the thumbnail size). */
  readonly minTile?: number;
  /** Tiles show the whole image instead of filling the square. */
  readonly uncropped?: boolean;
  /** Asks for the tile's actions menu (right click, Shift+F10, the Menu key). */
  readonly onMenu?: (request: MenuRequest) => void;
  /** The selected images (gallery-selection.tsx): some by key, or the whole filtered set. */
  readonly selection?: Selection<string>;
  /** A tile clicked with Ctrl/Cmd or Shift, its check, or Space (Shift+Space) on it. */
  readonly onSelect?: (key: string, modifiers: ClickModifiers) => void;
}

/**
 * The gallery's virtualized grid: only the rows in view (plus a few) are in the page, columns
 * follow the width, and one tile at a time is tabbable (arrow keys move between them).
 */
export function GalleryGrid(props: GalleryGridProps) {
  const { items, hasMore, loadingMore, activeKey, onActiveChange, onLoadMore } = props;
  const { jump = null, jumpLoading = null, onLoadAt, onMenu } = props;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(scrollerRef);
  const { columns, tile, rowHeight } = gridLayout(size.width - GRID_PADDING * 2, props.minTile);
  // Everything the filters match has its place, loaded or not, so the scrollbar is the gallery's.
  const count = hasMore ? Math.max(items.length, props.total ?? 0) : items.length;
  const rowCount = Math.ceil(count / columns);
  const headRows = Math.ceil(items.length / columns);
  const itemAt = (index: number): GalleryItem | undefined =>
    index < items.length ? items[index] : jump?.items[index - jump.offset];
  const indexOf = useMemo(
    () => new Map(items.map((item, index) => [itemKey(item), index])),
    [items],
  );
  // Images loaded by position (a scrollbar dragged far down) have their places too: one of them
  // can hold the tab stop, take the keys and be moved to with the arrows like any other.
  const placeOf = useMemo(() => {
    if (!jump || jump.items.length === 0) return indexOf;
    const places = new Map(indexOf);
    jump.items.forEach((item, at) => {
      const key = itemKey(item);
      if (!places.has(key)) places.set(key, jump.offset + at);
    });
    return places;
  }, [indexOf, jump]);
  const activeIndex = activeKey === null ? -1 : (placeOf.get(activeKey) ?? -1);
  const tabIndex = activeIndex >= 0 ? activeIndex : 0;
  const activeRow = Math.floor(tabIndex / columns);

  // The active row stays rendered even when scrolled away, so the tab stop and focus survive.
  const rangeExtractor = useCallback(
    (range: Range) => withRow(defaultRangeExtractor(range), activeRow, range.count),
    [activeRow],
  );
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    paddingStart: GRID_PADDING,
    paddingEnd: GRID_PADDING,
    useFlushSync: false,
    rangeExtractor,
  });
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);

  const focusIndex = useGridFocus({
    scrollerRef,
    items,
    indexOf,
    placeOf,
    keyAt: (index) => {
      const item = itemAt(index);
      return item ? itemKey(item) : undefined;
    },
    columns,
    tile,
    rowHeight,
    padding: GRID_PADDING,
    onActiveChange,
    focusRequest: props.focusRequest,
  });

  const virtualRows = virtualizer.getVirtualItems();
  const lastVisibleRow = virtualizer.range?.endIndex ?? -1;
  const firstVisibleRow = virtualizer.range?.startIndex ?? 0;
  const far = firstVisibleRow > headRows + LOAD_AHEAD_ROWS;
  useEffect(() => {
    if (hasMore && !far && !loadingMore && lastVisibleRow >= headRows - 1 - LOAD_AHEAD_ROWS)
      onLoadMore();
  }, [hasMore, far, loadingMore, lastVisibleRow, headRows, onLoadMore]);
  const wanted = far ? jumpWanted(firstVisibleRow, lastVisibleRow, columns, count, jump) : null;
  // A page by position holds the rows in view and a margin above and below, no more: a drag
  // asks for one at every frame that moved away, each read, sent and drawn while the hand moves.
  const jumpLimit = Math.min(
    MAX_JUMP_PAGE,
    (lastVisibleRow - firstVisibleRow + 1 + 2 * JUMP_MARGIN_ROWS) * columns,
  );
  useEffect(() => {
    // A new page by position when the view has moved away from the one on its way (the latest
    // answer wins): waiting for a stale one cost a round trip at the end of every drag.
    const near = jumpLoading !== null && Math.abs(jumpLoading - (wanted ?? 0)) < columns * 2;
    if (wanted !== null && !near) onLoadAt?.(wanted, jumpLimit);
  }, [wanted, jumpLoading, columns, onLoadAt, jumpLimit]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    // Keys on the tile itself; a Retry button inside handles its own.
    const cell = event.target as HTMLElement;
    if (cell.getAttribute('role') !== 'gridcell') return;
    // The keys act on the tile that has them: its own place, loaded from the top or by position.
    const index = Number(cell.dataset['index']);
    const item = Number.isInteger(index) ? itemAt(index) : undefined;
    if (!item) return;
    if (menuKey(event)) {
      event.preventDefault();
      const box = cell.getBoundingClientRect();
      onMenu?.({ item, x: box.left + box.width / 2, y: box.top + box.height / 2, from: cell });
      return;
    }
    const pageRows = Math.max(1, Math.floor(size.height / rowHeight));
    const next = moveFor(logicalArrow(event.key), { index, count, columns, pageRows });
    if (next !== null) {
      event.preventDefault();
      const target = itemAt(next);
      // Not loaded yet (End, a page far down): the grid scrolls there, loads it, then focuses it.
      focusIndex(target ? itemKey(target) : null, next);
      return;
    }
    if (event.key === ' ' && props.onSelect && !event.altKey) {
      // Space selects (Enter opens); Shift+Space selects the range from the last one.
      event.preventDefault();
      const { shiftKey, metaKey } = event;
      props.onSelect(itemKey(item), { shiftKey, metaKey, ctrlKey: event.ctrlKey || !shiftKey });
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = keyAction(event.key);
    if (action === null) return;
    event.preventDefault();
    if (action === 'open') props.onOpen(itemKey(item));
    else if (action === 'delete') props.onDelete(item);
    else props.onFavourite(item);
  };

  return (
    <div ref={scrollerRef} className="gallery-grid">
      <div
        role="grid"
        aria-label={t('gallery.grid.label')}
        aria-describedby={props.describedBy}
        aria-rowcount={hasMore && props.total == null ? -1 : rowCount}
        aria-colcount={columns}
        aria-multiselectable={props.onSelect ? true : undefined}
        // Not in the tab order (a tile is); the focus lands here when the tile it was on went.
        tabIndex={-1}
        className="gallery-grid__rows"
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
        onContextMenu={(event) => {
          const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
          const item = cell ? itemAt(Number(cell.dataset['index'])) : undefined;
          if (!cell || !item || !onMenu) return;
          event.preventDefault();
          // A keyboard's Menu key may also send this event: the keydown above has answered it.
          if (event.clientX === 0 && event.clientY === 0) return;
          onMenu({ item, x: event.clientX, y: event.clientY, from: cell });
        }}
      >
        {virtualRows.map((row) => (
          <div
            role="row"
            key={row.key}
            aria-rowindex={row.index + 1}
            className="gallery-grid__row"
            style={{ transform: `translateY(${String(row.start)}px)`, height: tile }}
          >
            {rowIndexes(row.index, columns, count).map((index, column) => {
              const item = itemAt(index);
              if (!item) return <PlaceholderTile key={`at-${index}`} column={column} size={tile} />;
              const key = itemKey(item);
              const place = {
                itemKey: key,
                column,
                size: tile,
                tabbable: index === tabIndex,
                index,
              };
              return (
                <ErrorBoundary
                  key={key}
                  resetKey={item}
                  fallback={(error) => <UnreadableTile {...place} detail={errorDetail(error)} />}
                >
                  <GalleryTile
                    item={item}
                    {...place}
                    uncropped={props.uncropped ?? false}
                    urgent={row.index >= firstVisibleRow && row.index <= lastVisibleRow}
                    selected={props.selection ? isSelected(props.selection, key) : false}
                    selecting={props.selection ? hasSelection(props.selection) : false}
                    {...(props.onSelect ? { onSelect: props.onSelect } : {})}
                    onActivate={onActiveChange}
                    onOpen={props.onOpen}
                    onRetry={props.onRetry}
                    onStartDrag={props.onStartDrag}
                  />
                </ErrorBoundary>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

type KeyAction = 'open' | 'delete' | 'favourite';

function keyAction(key: string): KeyAction | null {
  if (key === 'Enter' || key === ' ') return 'open';
  if (key === 'Delete' || key === 'Backspace') return 'delete';
  if (key === 'f' || key === 'F') return 'favourite';
  return null;
}

/** The positions of one row's tiles. */
function rowIndexes(row: number, columns: number, count: number): number[] {
  const first = row * columns;
  return Array.from({ length: Math.max(0, Math.min(columns, count - first)) }, (_, k) => first + k);
}

/** Rows loaded on either side of the view when a page is loaded by position. */
const JUMP_MARGIN_ROWS = 4;
/** The most a page by position asks for (the contract allows 500). */
const MAX_JUMP_PAGE = 500;

/**
 * The position to load a page at for the rows in view, or null when the page loaded by position
 * already holds them.
 */
function jumpWanted(
  firstRow: number,
  lastRow: number,
  columns: number,
  count: number,
  jump: GalleryJump | null,
): number | null {
  const first = firstRow * columns;
  const last = Math.min(count, (lastRow + 1) * columns);
  if (jump && first >= jump.offset && last <= jump.offset + jump.items.length) return null;
  const offset = Math.max(0, first - JUMP_MARGIN_ROWS * columns);
  // Asked and answered (a short page: the gallery shrank meanwhile); the next count will tell.
  return jump?.offset === offset ? null : offset;
}

function withRow(rows: number[], row: number, count: number): number[] {
  if (row < 0 || row >= count || rows.includes(row)) return rows;
  return [...rows, row].sort((a, b) => a - b);
}
