import { useMemo, useRef } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { t } from '../../i18n';
import { keyIndexOf } from '../../store/gallery-keys';
import { itemKey } from '../../store/gallery-list-model';
import type { GalleryJump } from '../../store/gallery-browse';
import { useKeptFeedTop } from '../../store/use-kept-feed-top';
import type { GalleryGridProps } from './gallery-grid-props';
import { GalleryGridRow } from './gallery-grid-row';
import { onGridKey } from './grid-keys';
import { GRID_PADDING, gridHeight, gridLayout } from './grid-geometry';
import { useElementSize } from './use-element-size';
import { useGridFocus } from './use-grid-focus';
import { useGridLoading } from './use-grid-loading';
import { useGridRows } from './use-grid-rows';
import { useViewSettled } from './view-motion';

/**
 * Every image's place in the grid by key: those loaded from the top, those loaded by position
 * (a scrollbar dragged far down) and the active one kept from a page before (store/gallery-kept.ts),
 * so one of them can hold the tab stop, take the keys and be moved to with the arrows like any other.
 */
function usePlaces(items: readonly GalleryItem[], jump: GalleryJump | null) {
  // Kept across changes that leave every image in its place (store/gallery-keys.ts).
  const indexOf = keyIndexOf(items).placeOf;
  const placeOf = useMemo(() => {
    const kept = jump?.kept ?? null;
    if (!jump || (jump.items.length === 0 && kept === null)) return indexOf;
    const places = new Map(indexOf);
    jump.items.forEach((item, at) => {
      const key = itemKey(item);
      if (!places.has(key)) places.set(key, jump.offset + at);
    });
    if (kept !== null && !places.has(itemKey(kept.item)))
      places.set(itemKey(kept.item), kept.index);
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
  // The same function while the images are: the rows are drawn again only when what they show is.
  const itemAt = useMemo(() => loadedAt(items, jump), [items, jump]);
  const { indexOf, placeOf } = usePlaces(items, jump);
  const activeIndex = activeKey === null ? -1 : (placeOf.get(activeKey) ?? -1);
  const tabIndex = activeIndex >= 0 ? activeIndex : 0;
  const activeRow = Math.floor(tabIndex / columns);

  const rows = laidOutRows(size, rowCount);

  // First: a change of the list or of the tile size scrolls to keep the view (use-live-anchor.ts)
  // before the rows' window below reads where the view is.
  const focusIndex = useGridFocus({
    scrollerRef,
    items,
    indexOf,
    placeOf,
    keyAt: (index) => keyOf(itemAt(index)),
    keyNearest: (index) => keyOf(itemAt(nearestLoaded(index, items.length, jump))),
    columns,
    tile,
    rowHeight,
    feedHeight: gridHeight(rows, rowHeight),
    onActiveChange,
    focusRequest: props.focusRequest,
  });

  useKeptFeedTop('gallery', scrollerRef, gridHeight(rows, rowHeight));
  // The active row stays drawn even when scrolled away, so the tab stop and focus survive.
  const grid = useGridRows({ scrollerRef, rows, rowHeight, pinned: activeRow });
  const settled = useViewSettled(
    grid.feedTop,
    { viewport: size.height, row: rowHeight },
    grid.view,
  );

  const { first: firstRow, last: lastRow } = grid.span;
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
        style={{ height: grid.drawnTotal }}
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
        {grid.rows.map((row) => (
          <GalleryGridRow
            key={row.index}
            place={{
              row: row.index,
              start: row.start,
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
 * The rows laid out: none until the grid has a size. A grid never shown (the gallery drawn
 * hidden as the app starts) measures 0 × 0: its one column of 1-px tiles would be a row per image,
 * and the first of them drawn would ask for thumbnails nobody sees.
 */
function laidOutRows(size: { readonly width: number }, rowCount: number): number {
  return size.width > 0 ? rowCount : 0;
}

/** The image at a place: loaded from the top, by position, or kept from a page before. */
function loadedAt(items: readonly GalleryItem[], jump: GalleryJump | null) {
  return (index: number): GalleryItem | undefined =>
    index < items.length
      ? items[index]
      : (jump?.items[index - jump.offset] ??
        (jump?.kept?.index === index ? jump.kept.item : undefined));
}

/**
 * The loaded place nearest `index`: its own when loaded (the image now in a place that lost its
 * own), else the nearest end of the images loaded from the top or of the page loaded by position.
 */
function nearestLoaded(index: number, loaded: number, jump: GalleryJump | null): number {
  const ends: number[] = [];
  if (loaded > 0) ends.push(Math.min(index, loaded - 1));
  if (jump && jump.items.length > 0) {
    ends.push(Math.min(Math.max(index, jump.offset), jump.offset + jump.items.length - 1));
  }
  return ends.reduce(
    (best, end) => (Math.abs(end - index) < Math.abs(best - index) ? end : best),
    ends[0] ?? index,
  );
}

function keyOf(item: GalleryItem | undefined): string | undefined {
  return item ? itemKey(item) : undefined;
}
