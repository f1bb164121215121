import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { feedTopOf, scrollFeedTo } from '../../lib/feed-scroll';
import { GRID_PADDING, rowTop } from './grid-geometry';
import { useLiveAnchor } from './use-live-anchor';

/** Asks the grid to scroll a tile into view and focus it (a new `seq` asks again). */
export interface FocusRequest {
  readonly key: string;
  readonly seq: number;
}

export interface GridFocusOptions {
  readonly scrollerRef: RefObject<HTMLElement | null>;
  readonly items: readonly GalleryItem[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** Every loaded image's place: `indexOf` plus the images loaded by position. */
  readonly placeOf: ReadonlyMap<string, number>;
  /** The key of the image at `index`, when it is loaded. */
  readonly keyAt: (index: number) => string | undefined;
  /** The key of the loaded image nearest the place `index`, if any is loaded. */
  readonly keyNearest: (index: number) => string | undefined;
  readonly columns: number;
  readonly tile: number;
  readonly rowHeight: number;
  /** The grid's whole height (lib/feed-scroll.ts), for the offsets of its rows. */
  readonly feedHeight: number;
  readonly onActiveChange: (key: string) => void;
  readonly focusRequest: FocusRequest | null;
}

/**
 * Moving the focus between tiles of a virtualized grid: a tile asked for may not be in the page
 * yet (its row needs a scroll and a render), so the request waits until it is. Keeps the focus
 * and the view steady when the list changes (see {@link useLiveAnchor}). Returns the function
 * that moves the focus to the image at `index`: its key, or null when it is not loaded yet (the
 * grid scrolls there, which loads it, and the focus follows when it arrives unless the user has
 * clicked or pressed a key since).
 */
export function useGridFocus(
  options: GridFocusOptions,
): (key: string | null, index: number) => void {
  const { scrollerRef, placeOf, keyAt, keyNearest, columns, onActiveChange } = options;
  const pending = useRef<string | null>(null);
  /** A place asked for before its image was loaded. */
  const pendingAt = useRef<number | null>(null);
  /** The focused tile when it is one of the page loaded by position (beyond the list). */
  const focusedAhead = useRef<{ key: string; index: number } | null>(null);
  const layout = useRef<FocusedLayout>({ columns, tile: null });
  const loadedFromTop = useRef(0);
  loadedFromTop.current = options.items.length;

  const applyPending = useCallback(() => {
    const key = pending.current;
    if (key === null) return;
    const element = findTile(scrollerRef.current, key);
    if (element) {
      pending.current = null;
      element.focus({ preventScroll: true });
    }
  }, [scrollerRef]);

  const scrollRowIntoView = useCallback(
    (row: number) => revealRow(scrollerRef.current, row, options),
    [scrollerRef, options.rowHeight, options.tile, options.feedHeight],
  );

  const focusIndex = useCallback(
    (key: string | null, index: number) => {
      pendingAt.current = key === null ? index : null;
      if (key !== null) {
        onActiveChange(key);
        pending.current = key;
      }
      scrollRowIntoView(Math.floor(index / columns));
      applyPending();
    },
    [columns, onActiveChange, scrollRowIntoView, applyPending],
  );

  useUserMoves(scrollerRef, pendingAt, { focusedAhead, layout }, loadedFromTop);

  useLiveAnchor({
    ...options,
    onRefocus: (key) => {
      onActiveChange(key);
      pending.current = key;
    },
  });

  // After every render: the tile asked for may have just arrived in the page.
  useLayoutEffect(() => {
    const at = pendingAt.current;
    const arrived = at === null ? undefined : keyAt(at);
    if (arrived !== undefined) {
      pendingAt.current = null;
      onActiveChange(arrived);
      pending.current = arrived;
    }
    const heir = heirOfLostAhead(focusedAhead, placeOf, keyNearest, scrollerRef.current);
    if (heir !== undefined) {
      onActiveChange(heir);
      pending.current = heir;
    }
    const kept = focusLostToColumns(layout.current, columns, placeOf, scrollerRef.current);
    if (kept !== null) pending.current = kept;
    const key = pending.current;
    if (key !== null && !placeOf.has(key)) pending.current = null;
    applyPending();
  });

  const { focusRequest } = options;
  useEffect(() => {
    if (!focusRequest) return;
    const index = placeOf.get(focusRequest.key);
    if (index !== undefined) focusIndex(focusRequest.key, index);
    // Only a new request moves the focus, not a later change of the list.
  }, [focusRequest]);

  return focusIndex;
}

/**
 * A click or another key (the grid's own handler runs after this one) drops a place still
 * waiting for its image: the focus must not jump away later from what the user did since. And
 * which tile of the page loaded by position (beyond the list) has the focus, if one has.
 */
function useUserMoves(
  scrollerRef: RefObject<HTMLElement | null>,
  pendingAt: RefObject<number | null>,
  focused: {
    readonly focusedAhead: RefObject<{ key: string; index: number } | null>;
    readonly layout: RefObject<FocusedLayout>;
  },
  loadedFromTop: RefObject<number>,
): void {
  const { focusedAhead, layout } = focused;
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const drop = (): void => {
      pendingAt.current = null;
    };
    const track = (event: FocusEvent): void => {
      const cell = (event.target as Element).closest<HTMLElement>('[role="gridcell"]');
      const index = Number(cell?.dataset['index']);
      const key = cell?.dataset['key'];
      layout.current.tile = key ?? null;
      // The grid itself takes the focus of a tile going away (a delete): that tile is still the
      // one whose place an heir takes.
      if (isGridBox(event.target)) return;
      focusedAhead.current =
        key !== undefined && Number.isInteger(index) && index >= loadedFromTop.current
          ? { key, index }
          : null;
    };
    // The focus went somewhere else in the page (not away with a removed tile, which names none).
    const left = (event: FocusEvent): void => {
      const to = event.relatedTarget;
      if (to instanceof Node && !scroller.contains(to)) layout.current.tile = null;
    };
    scroller.addEventListener('pointerdown', drop);
    scroller.addEventListener('keydown', drop);
    scroller.addEventListener('focusin', track);
    scroller.addEventListener('focusout', left);
    return () => {
      scroller.removeEventListener('pointerdown', drop);
      scroller.removeEventListener('keydown', drop);
      scroller.removeEventListener('focusin', track);
      scroller.removeEventListener('focusout', left);
    };
  }, [scrollerRef]);
}

/**
 * A focused tile of the page loaded by position that went away (deleted, or that page loaded
 * again without it) hands the focus to the tile now in its place, as useLiveAnchor does for the
 * list, or the loaded one nearest it (the tile was kept far from the page in view:
 * store/gallery-kept.ts); only while nothing else took the focus meanwhile. Returns that key.
 */
function heirOfLostAhead(
  focusedAhead: RefObject<{ key: string; index: number } | null>,
  placeOf: ReadonlyMap<string, number>,
  keyNearest: (index: number) => string | undefined,
  scroller: HTMLElement | null,
): string | undefined {
  const lost = focusedAhead.current;
  // The grid itself has the focus when a delete moved it there as the tile went.
  const active = scroller?.ownerDocument.activeElement ?? null;
  const free = nothingFocused(scroller) || (scroller?.contains(active) && isGridBox(active));
  if (lost === null || placeOf.has(lost.key) || !free) return undefined;
  focusedAhead.current = null;
  return keyNearest(lost.index);
}

/** The tile of this grid that has the focus (null when none has) and the columns laid out. */
interface FocusedLayout {
  columns: number;
  tile: string | null;
}

/**
 * The tile to focus again after a change of `columns`, if any: another number of columns puts
 * tiles in other rows, which React mounts anew, so the focused tile's element went with its old
 * row and the focus with it, to the page. Only when nothing else has the focus now.
 */
function focusLostToColumns(
  layout: FocusedLayout,
  columns: number,
  placeOf: ReadonlyMap<string, number>,
  scroller: HTMLElement | null,
): string | null {
  if (layout.columns === columns) return null;
  layout.columns = columns;
  const had = layout.tile;
  return had !== null && placeOf.has(had) && nothingFocused(scroller) ? had : null;
}

/** Scrolls the least distance that shows row `row` whole, with the grid's padding around it. */
function revealRow(
  scroller: HTMLElement | null,
  row: number,
  geometry: { rowHeight: number; tile: number; feedHeight: number },
): void {
  if (!scroller) return;
  const { rowHeight, tile, feedHeight } = geometry;
  const top = rowTop(row, rowHeight);
  const bottom = top + tile + GRID_PADDING;
  const shown = feedTopOf(scroller, feedHeight);
  if (top - GRID_PADDING < shown) scrollFeedTo(scroller, feedHeight, top - GRID_PADDING);
  else if (bottom > shown + scroller.clientHeight) {
    scrollFeedTo(scroller, feedHeight, bottom - scroller.clientHeight);
  }
}

/** True when the focus is nowhere in particular (the body): what a removed element leaves. */
function nothingFocused(scroller: HTMLElement | null): boolean {
  const active = scroller?.ownerDocument.activeElement;
  return scroller !== null && (!active || active === scroller.ownerDocument.body);
}

/** Whether `target` is the grid's own box (its rows' parent, focusable but not in the tab order). */
function isGridBox(target: EventTarget | null): boolean {
  return target instanceof Element && target.getAttribute('role') === 'grid';
}

/** The tile element of `key` (compared as data, never spliced into a selector). */
export function findTile(root: HTMLElement | null, key: string): HTMLElement | null {
  if (!root) return null;
  for (const element of root.querySelectorAll<HTMLElement>('[data-key]')) {
    if (element.dataset['key'] === key) return element;
  }
  return null;
}
