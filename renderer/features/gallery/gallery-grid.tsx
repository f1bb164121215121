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
import { itemKey } from '../../store/gallery-list-model';
import { ErrorBoundary, errorDetail } from '../../components/error-boundary';
import { GalleryTile, UnreadableTile } from './gallery-tile';
import { gridLayout, moveFor } from './grid-geometry';
import { useElementSize } from './use-element-size';
import { useGridFocus, type FocusRequest } from './use-grid-focus';

/** Space around the grid inside the scroller (CSS pixels). */
export const GRID_PADDING = 16;
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
}

/**
 * The gallery's virtualized grid: only the rows in view (plus a few) are in the page, columns
 * follow the width, and one tile at a time is tabbable (arrow keys move between them).
 */
export function GalleryGrid(props: GalleryGridProps) {
  const { items, hasMore, loadingMore, activeKey, onActiveChange, onLoadMore } = props;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(scrollerRef);
  const { columns, tile, rowHeight } = gridLayout(size.width - GRID_PADDING * 2);
  const rowCount = Math.ceil(items.length / columns);
  const indexOf = useMemo(
    () => new Map(items.map((item, index) => [itemKey(item), index])),
    [items],
  );
  const activeIndex = activeKey === null ? -1 : (indexOf.get(activeKey) ?? -1);
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
    columns,
    tile,
    rowHeight,
    padding: GRID_PADDING,
    onActiveChange,
    focusRequest: props.focusRequest,
  });

  const virtualRows = virtualizer.getVirtualItems();
  const lastVisibleRow = virtualizer.range?.endIndex ?? -1;
  useEffect(() => {
    if (hasMore && !loadingMore && lastVisibleRow >= rowCount - 1 - LOAD_AHEAD_ROWS) onLoadMore();
  }, [hasMore, loadingMore, lastVisibleRow, rowCount, onLoadMore]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    // Keys on the tile itself; a Retry button inside handles its own.
    if ((event.target as HTMLElement).getAttribute('role') !== 'gridcell') return;
    const item = items[tabIndex];
    if (!item) return;
    const pageRows = Math.max(1, Math.floor(size.height / rowHeight));
    const next = moveFor(event.key, { index: tabIndex, count: items.length, columns, pageRows });
    if (next !== null) {
      event.preventDefault();
      const target = items[next];
      if (target) focusIndex(itemKey(target), next);
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
        aria-rowcount={hasMore ? -1 : rowCount}
        aria-colcount={columns}
        className="gallery-grid__rows"
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
      >
        {virtualRows.map((row) => (
          <div
            role="row"
            key={row.key}
            aria-rowindex={row.index + 1}
            className="gallery-grid__row"
            style={{ transform: `translateY(${String(row.start)}px)`, height: tile }}
          >
            {items.slice(row.index * columns, row.index * columns + columns).map((item, column) => {
              const key = itemKey(item);
              const place = {
                itemKey: key,
                column,
                size: tile,
                tabbable: row.index * columns + column === tabIndex,
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

function withRow(rows: number[], row: number, count: number): number[] {
  if (row < 0 || row >= count || rows.includes(row)) return rows;
  return [...rows, row].sort((a, b) => a - b);
}
