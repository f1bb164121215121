import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { t } from '../../i18n';
import type { ClickModifiers, Selection } from '../../lib/selection';
import { keyIndexOf } from '../../store/gallery-keys';
import { itemKey } from '../../store/gallery-list-model';
import type { GalleryJump } from '../../store/gallery-browse';
import type { MenuRequest } from './gallery-context-menu';
import { GalleryGridRow } from './gallery-grid-row';
import { onGridKey } from './grid-keys';
import type { TriageKey } from '../../lib/triage-keys';
import { gridLayout } from './grid-geometry';
import { useElementSize } from './use-element-size';
import { useGridFocus, type FocusRequest } from './use-grid-focus';
import { useGridLoading } from './use-grid-loading';

/** Space around the grid inside the scroller (CSS pixels). */
const GRID_PADDING = 16;
/** Rows rendered beyond the visible ones, above and below. */
const OVERSCAN_ROWS = 2;

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
  /** A triage key on a tile; answers whether the focus moves on to the next one. */
  readonly onTriage?: (item: GalleryItem, key: TriageKey) => boolean;
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
  /** Shift with a key that moves: the selection from the anchor to the place `toIndex`. */
  readonly onExtend?: (from: string, toIndex: number, add: boolean) => void;
}

/**
 * Every image's place in the grid by key: those loaded from the top, and those loaded by position
 * (a scrollbar dragged far down), so one of them can hold the tab stop, take the keys and be moved
 * to with the arrows like any other.
 */
function usePlaces(items: readonly GalleryItem[], jump: GalleryJump | null) {
  // Kept across changes that leave every image in its place (store/gallery-keys.ts).
  const indexOf = keyIndexOf(items).placeOf;
  const placeOf = useMemo(() => {
    if (!jump || jump.items.length === 0) return indexOf;
    const places = new Map(indexOf);
    jump.items.forEach((item, at) => {
      const key = itemKey(item);
      if (!places.has(key)) places.set(key, jump.offset + at);
    });
    return places;
  }, [indexOf, jump]);
  return { indexOf, placeOf };
}

/**
 * The gallery's virtualized grid: only the rows in view (plus a few) are in the page, columns
 * follow the width, and one tile at a time is tabbable (arrow keys move between them).
 */
export function GalleryGrid(props: GalleryGridProps) {
  const { items, hasMore, activeKey, onActiveChange, onMenu } = props;
  const jump = props.jump ?? null;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(scrollerRef);
  const { columns, tile, rowHeight } = gridLayout(size.width - GRID_PADDING * 2, props.minTile);
  // Everything the filters match has its place, loaded or not, so the scrollbar is the gallery's.
  const count = hasMore ? Math.max(items.length, props.total ?? 0) : items.length;
  const rowCount = Math.ceil(count / columns);
  const itemAt = (index: number): GalleryItem | undefined =>
    index < items.length ? items[index] : jump?.items[index - jump.offset];
  const { indexOf, placeOf } = usePlaces(items, jump);
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

  // Reading the rows first brings the virtualizer's range up to date.
  const virtualRows = virtualizer.getVirtualItems();
  const lastRow = virtualizer.range?.endIndex ?? -1;
  const firstRow = virtualizer.range?.startIndex ?? 0;
  const headRows = Math.ceil(items.length / columns);
  useGridLoading({ firstRow, lastRow, columns, count, headRows }, props);
  const pageRows = Math.max(1, Math.floor(size.height / rowHeight));
  const keys = { props, itemAt, count, columns, pageRows, focusIndex };

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
        onKeyDown={(event) => onGridKey(event, keys)}
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
          <GalleryGridRow
            key={row.key}
            place={{
              row: row.index,
              start: row.start,
              columns,
              count,
              tile,
              tabIndex,
              urgent: row.index >= firstRow && row.index <= lastRow,
            }}
            itemAt={itemAt}
            props={props}
          />
        ))}
      </div>
    </div>
  );
}

function withRow(rows: number[], row: number, count: number): number[] {
  if (row < 0 || row >= count || rows.includes(row)) return rows;
  return [...rows, row].sort((a, b) => a - b);
}
