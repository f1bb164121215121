import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { feedTopOf, scrollFeedTo } from '../../lib/feed-scroll';
import { itemKey } from '../../store/gallery-list-model';
import { rowAt, rowTop } from './grid-geometry';

/** How the grid was laid out: its images (loaded from the top), columns and row height. */
interface Laid {
  readonly items: readonly GalleryItem[];
  readonly columns: number;
  readonly rowHeight: number;
}

interface Snapshot extends Laid {
  /**
   * The image whose place on screen is kept: the focused tile when it is in view, else the first
   * tile in view; its place, and its key when it is loaded from the top.
   */
  readonly anchor: { readonly index: number; readonly key: string | null } | null;
  /** Whether a tile had the focus (it is given back after the list changed). */
  readonly focusedKey: string | null;
  /** The grid's offset shown (lib/feed-scroll.ts), in the grid's height before the change. */
  readonly top: number;
}

export interface LiveAnchorOptions {
  readonly scrollerRef: RefObject<HTMLElement | null>;
  readonly items: readonly GalleryItem[];
  readonly indexOf: ReadonlyMap<string, number>;
  readonly columns: number;
  readonly rowHeight: number;
  /** The grid's whole height (lib/feed-scroll.ts). */
  readonly feedHeight: number;
  /** Called when the focused tile has to be focused again (it moved rows or went away). */
  readonly onRefocus: (key: string) => void;
}

/**
 * Keeps the view steady when images arrive or leave while the user looks at the grid, and when
 * the tiles change size (the thumbnail size, the window's width: other columns, other rows): the
 * focused tile (or the first tile in view) stays where it was on screen, and a tile that had the
 * focus keeps it even if its row changed. At the very top with nothing focused the new images
 * simply show.
 */
export function useLiveAnchor(options: LiveAnchorOptions): void {
  const { scrollerRef, items, indexOf, columns, rowHeight, onRefocus } = options;
  const { feedHeight } = options;
  const shownHeight = useRef(feedHeight);
  const committed = useRef<Laid>({ items, columns, rowHeight });
  const snapshot = useRef<Snapshot | null>(null);

  // Read the page as it is before React commits the change: once the tiles are re-rendered,
  // a tile that moved to another row is a new element and the focus is gone.
  const laid = committed.current;
  const changed = laid.items !== items || laid.columns !== columns || laid.rowHeight !== rowHeight;
  if (changed && snapshot.current === null) {
    snapshot.current = takeSnapshot(scrollerRef.current, laid, shownHeight.current);
  }

  useLayoutEffect(() => {
    const before = snapshot.current;
    snapshot.current = null;
    committed.current = { items, columns, rowHeight };
    shownHeight.current = feedHeight;
    const scroller = scrollerRef.current;
    if (!before || !scroller || before.anchor === null) return;
    const { key } = before.anchor;
    // The same images laid out anew keep their places; a changed list is searched by key.
    const sameItems = before.items === items;
    const oldIndex = sameItems || key === null ? before.anchor.index : placeIn(before.items, key);
    const newIndex = sameItems ? oldIndex : key === null ? undefined : indexOf.get(key);
    if (newIndex !== undefined && oldIndex >= 0) {
      // Where the anchor's row was on screen, and where it is now.
      const onScreen = rowTop(Math.floor(oldIndex / before.columns), before.rowHeight) - before.top;
      const top = rowTop(Math.floor(newIndex / columns), rowHeight) - onScreen;
      if (top !== before.top) scrollFeedTo(scroller, feedHeight, top);
    }
    if (before.focusedKey === null || sameItems) return;
    // A focused image that went away hands the focus to the one now in its place.
    const replacement = indexOf.has(before.focusedKey)
      ? before.focusedKey
      : keyNear(items, placeIn(before.items, before.focusedKey));
    if (replacement !== null) onRefocus(replacement);
  }, [items, indexOf, columns, rowHeight, scrollerRef, onRefocus, feedHeight]);
}

function takeSnapshot(
  scroller: HTMLElement | null,
  laid: Laid,
  feedHeight: number,
): Snapshot | null {
  const { items, columns, rowHeight } = laid;
  if (!scroller) return null;
  const active = scroller.ownerDocument.activeElement;
  const cell =
    active instanceof HTMLElement && scroller.contains(active)
      ? active.closest<HTMLElement>('[data-key]')
      : null;
  const focusedKey = cell?.dataset['key'] ?? null;
  const top = feedTopOf(scroller, feedHeight);
  const firstRow = rowAt(top, rowHeight);
  const lastRow = rowAt(top + scroller.clientHeight - 1, rowHeight);
  const focusedIndex = Number(cell?.dataset['index']);
  const focusedRow = Math.floor(focusedIndex / columns);
  const anchor =
    focusedKey !== null &&
    Number.isInteger(focusedIndex) &&
    focusedRow >= firstRow &&
    focusedRow <= lastRow
      ? { index: focusedIndex, key: focusedKey }
      : top > 0
        ? firstInView(items, firstRow * columns)
        : null;
  return { items, columns, rowHeight, anchor, focusedKey, top };
}

function firstInView(items: readonly GalleryItem[], index: number) {
  const item = items[index];
  return { index, key: item ? itemKey(item) : null };
}

function placeIn(items: readonly GalleryItem[], key: string): number {
  return items.findIndex((item) => itemKey(item) === key);
}

function keyNear(items: readonly GalleryItem[], index: number): string | null {
  if (items.length === 0 || index < 0) return null;
  const item = items[Math.min(index, items.length - 1)];
  return item ? itemKey(item) : null;
}
