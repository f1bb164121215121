import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { feedTopOf, scrollFeedTo } from '../../lib/feed-scroll';
import { itemKey } from '../../store/gallery-list-model';

interface Snapshot {
  readonly items: readonly GalleryItem[];
  readonly columns: number;
  /** The image whose place on screen is kept: the focused tile, else the first one in view. */
  readonly anchorKey: string | null;
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
  readonly padding: number;
  /** The grid's whole height (lib/feed-scroll.ts). */
  readonly feedHeight: number;
  /** Called when the focused tile has to be focused again (it moved rows or went away). */
  readonly onRefocus: (key: string) => void;
}

/**
 * Keeps the view steady when images arrive or leave while the user looks at the grid: the
 * focused tile (or the first tile in view) stays where it was on screen, and a tile that had the
 * focus keeps it even if its row changed. At the very top with nothing focused the new images
 * simply show.
 */
export function useLiveAnchor(options: LiveAnchorOptions): void {
  const { scrollerRef, items, indexOf, columns, rowHeight, padding, onRefocus } = options;
  const { feedHeight } = options;
  const shownHeight = useRef(feedHeight);
  const committed = useRef(items);
  const snapshot = useRef<Snapshot | null>(null);

  // Read the page as it is before React commits the new list: once the tiles are re-rendered,
  // a tile that moved to another row is a new element and the focus is gone.
  if (committed.current !== items && snapshot.current === null) {
    snapshot.current = takeSnapshot(scrollerRef.current, committed.current, {
      columns,
      rowHeight,
      padding,
      feedHeight: shownHeight.current,
    });
  }

  useLayoutEffect(() => {
    const before = snapshot.current;
    snapshot.current = null;
    committed.current = items;
    shownHeight.current = feedHeight;
    const scroller = scrollerRef.current;
    if (!before || !scroller || before.anchorKey === null) return;
    const oldIndex = before.items.findIndex((item) => itemKey(item) === before.anchorKey);
    const newIndex = indexOf.get(before.anchorKey);
    if (newIndex !== undefined && oldIndex >= 0) {
      const shift = Math.floor(newIndex / columns) - Math.floor(oldIndex / before.columns);
      if (shift !== 0) scrollFeedTo(scroller, feedHeight, before.top + shift * rowHeight);
    }
    if (before.focusedKey === null) return;
    // A focused image that went away hands the focus to the one now in its place.
    const replacement = newIndex !== undefined ? before.focusedKey : keyNear(items, oldIndex);
    if (replacement !== null) onRefocus(replacement);
  }, [items, indexOf, columns, rowHeight, scrollerRef, onRefocus, feedHeight]);
}

function takeSnapshot(
  scroller: HTMLElement | null,
  items: readonly GalleryItem[],
  geometry: { columns: number; rowHeight: number; padding: number; feedHeight: number },
): Snapshot | null {
  const { columns, rowHeight, padding, feedHeight } = geometry;
  if (!scroller) return null;
  const active = scroller.ownerDocument.activeElement;
  const focusedKey =
    active instanceof HTMLElement && scroller.contains(active)
      ? (active.closest<HTMLElement>('[data-key]')?.dataset['key'] ?? null)
      : null;
  const top = feedTopOf(scroller, feedHeight);
  const firstRow = Math.max(0, Math.floor((top - padding) / rowHeight));
  const first = items[firstRow * columns];
  const anchorKey = focusedKey ?? (top > 0 && first ? itemKey(first) : null);
  return { items, columns, anchorKey, focusedKey, top };
}

function keyNear(items: readonly GalleryItem[], index: number): string | null {
  if (items.length === 0 || index < 0) return null;
  const item = items[Math.min(index, items.length - 1)];
  return item ? itemKey(item) : null;
}
