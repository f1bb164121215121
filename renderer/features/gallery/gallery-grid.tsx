import {
  defaultRangeExtractor,
  elementScroll,
  observeElementOffset,
  useVirtualizer,
  type Range,
} from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { t } from '../../i18n';
import { drawnHeight, drawnStart, toFeedOffset, toScrollerOffset } from '../../lib/feed-scroll';
import { keyIndexOf } from '../../store/gallery-keys';
import { itemKey } from '../../store/gallery-list-model';
import type { GalleryJump } from '../../store/gallery-browse';
import type { GalleryGridProps } from './gallery-grid-props';
import { GalleryGridRow } from './gallery-grid-row';
import { onGridKey } from './grid-keys';
import { gridLayout } from './grid-geometry';
import { useElementSize } from './use-element-size';
import { useGridFocus } from './use-grid-focus';
import { useGridLoading } from './use-grid-loading';
import { useViewSettled } from './view-motion';

/** Space around the grid inside the scroller (CSS pixels). */
const GRID_PADDING = 16;
/** Rows rendered beyond the visible ones, above and below. */
const OVERSCAN_ROWS = 2;

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
  const { virtualizer, total, feedTop } = useScaledVirtualizer({
    count: laidOutRows(size, rowCount),
    getScrollElement: () => scrollerRef.current,
    rowHeight,
    rangeExtractor,
  });
  const settled = useViewSettled(feedTop, { viewport: size.height, row: rowHeight }, virtualizer);

  const focusIndex = useGridFocus({
    scrollerRef,
    items,
    indexOf,
    placeOf,
    keyAt: (index) => keyOf(itemAt(index)),
    columns,
    tile,
    rowHeight,
    padding: GRID_PADDING,
    feedHeight: total,
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
        style={{ height: drawnHeight(total) }}
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
              start: drawnStart(row.start, feedTop, total, size.height),
              columns,
              count,
              tile,
              tabIndex,
              urgent: row.index >= firstRow && row.index <= lastRow,
              held: !settled,
            }}
            itemAt={itemAt}
            props={props}
          />
        ))}
      </div>
    </div>
  );
}

/**
 * The rows the virtualizer lays out: none until the grid has a size. A grid never shown (the
 * gallery drawn hidden as the app starts) measures 0 × 0, and its one column of 1-px tiles would
 * be a row per image: the virtualizer walks every row when the count or the row height changes,
 * so at 2.5 million images it built arrays of 2.5 million rows as the app started and held them
 * (about 60 MB of the page's heap) until the click that shows the grid.
 */
function laidOutRows(size: { readonly width: number }, rowCount: number): number {
  return size.width > 0 ? rowCount : 0;
}

type GridVirtualizerOptions = Pick<
  Parameters<typeof useVirtualizer<HTMLDivElement, Element>>[0],
  'count' | 'getScrollElement' | 'rangeExtractor'
> & { readonly rowHeight: number };

/**
 * The grid's virtualizer, over a grid that may be taller than a page can lay out
 * (lib/feed-scroll.ts): it reads and writes offsets in the whole grid's terms, the scroller's
 * own mapped onto them; rows `rowHeight` apart, the grid's padding and overscan. Returns the
 * grid's whole height and the offset shown.
 */
function useScaledVirtualizer({ rowHeight, ...options }: GridVirtualizerOptions) {
  const feedTotal = useRef(0);
  const virtualizer = useVirtualizer({
    ...options,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    paddingStart: GRID_PADDING,
    paddingEnd: GRID_PADDING,
    useFlushSync: false,
    observeElementOffset: (instance, notify) =>
      observeElementOffset(instance, (offset, scrolling) => {
        const viewport = instance.scrollElement?.clientHeight ?? 0;
        notify(toFeedOffset(offset, feedTotal.current, viewport), scrolling);
      }),
    scrollToFn: (offset, how, instance) => {
      const viewport = instance.scrollElement?.clientHeight ?? 0;
      const to = toScrollerOffset(offset + (how.adjustments ?? 0), feedTotal.current, viewport);
      elementScroll(to, { ...how, adjustments: 0 }, instance);
    },
  });
  // A row height the render has not applied (the rows as many as before) is applied here; with a
  // new count the render's own pass over every row has applied it, and none is made again (at a
  // million tasks the grid shown the first time has 357,143 rows).
  useLayoutEffect(() => {
    if (virtualizer.measurementsCache[0]?.size !== rowHeight) virtualizer.measure();
  }, [virtualizer, rowHeight]);
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    feedTotal.current = total;
  }, [total]);
  return { virtualizer, total, feedTop: virtualizer.scrollOffset ?? 0 };
}

function keyOf(item: GalleryItem | undefined): string | undefined {
  return item ? itemKey(item) : undefined;
}

function withRow(rows: number[], row: number, count: number): number[] {
  if (row < 0 || row >= count || rows.includes(row)) return rows;
  return [...rows, row].sort((a, b) => a - b);
}
