/**
 * The grid of a million tasks' images (2,500,000, five columns: 500,000 rows, 97.5 million px),
 * taller than a page can lay out, so drawn scaled (lib/feed-scroll.ts): the scrollbar's middle
 * shows the middle rows, its end the last; a key that moves the focus into a row not drawn scrolls
 * it into view and focuses its tile once its page is loaded; and the tile that was first in view
 * stays first in view, where it was, when the tiles change size. jsdom lays nothing out: the
 * sizes are the harness's, and a scroll set by code fires `scroll`.
 */
import { act, fireEvent, render } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { GalleryGrid } from '../../../../renderer/features/gallery/gallery-grid';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import type { GalleryJump } from '../../../../renderer/store/gallery-browse';
import { keptAcross } from '../../../../renderer/store/gallery-kept';
import { refOf } from '../../../../renderer/store/image-ref';
import { galleryItem, galleryItems } from './gallery-builders';
import { focusedKey, galleryLayout, resize, scroller, scrollEventsFor } from './gallery-harness';

galleryLayout();

// 1000 × 600 px: 5 columns of 187-px tiles, rows 195 px apart after 16 px of padding.
const COLUMNS = 5;
const ROW = 195;
const VIEW = 600;
const TOTAL = 2_500_000;
const ROWS = TOTAL / COLUMNS;

/** The grid over `loaded` images from the top of `total`; a page asked for by position comes. */
function Grid({ loaded, total, minTile }: { loaded: number; total: number; minTile?: number }) {
  const [items] = useState(() => galleryItems(loaded));
  const [jump, setJump] = useState<GalleryJump | null>(null);
  const [active, setActive] = useState<string | null>(null);
  return (
    <GalleryGrid
      items={items}
      hasMore={loaded < total}
      total={total}
      loadingMore={false}
      activeKey={active}
      onActiveChange={setActive}
      focusRequest={null}
      onOpen={() => undefined}
      onDelete={() => undefined}
      onRetry={() => undefined}
      onStartDrag={() => undefined}
      onLoadMore={() => undefined}
      onLoadAt={(offset, limit, keep) => {
        const length = Math.min(limit, total - offset);
        const page = Array.from({ length }, (_, k) => galleryItem({ n: offset + k }));
        // As the store does (store/gallery-kept.ts): the active image kept when not reached.
        setJump((before) => withKept(before, { offset, limit, items: page }, keep));
      }}
      jump={jump}
      {...(minTile === undefined ? {} : { minTile })}
    />
  );
}

/** `next` with the image `keep` kept from `before` when `next` does not reach it (gallery-kept.ts). */
function withKept(before: GalleryJump | null, next: GalleryJump, keep: string | null): GalleryJump {
  const refs = (jump: GalleryJump) => jump.items.map(refOf);
  const kept = keptAcross(
    before && {
      offset: before.offset,
      refs: refs(before),
      kept: before.kept ? { index: before.kept.index, refs: [refOf(before.kept.item)] } : null,
    },
    { offset: next.offset, refs: refs(next) },
    keep,
  );
  const item =
    kept &&
    [...(before?.items ?? []), ...(before?.kept ? [before.kept.item] : [])].find(
      (one) => itemKey(one) === itemKey(kept.refs[0]),
    );
  return kept && item ? { ...next, kept: { index: kept.index, item } } : next;
}

function renderGrid(loaded: number, total: number) {
  const view = render(<Grid loaded={loaded} total={total} />);
  scrollEventsFor(scroller());
  return view;
}

/** The rows drawn: each one's index and its top in the box the rows are drawn in. */
function drawnRows(): { row: number; start: number }[] {
  return [...document.querySelectorAll<HTMLElement>('[role="row"]')].map((row) => ({
    row: Number(row.getAttribute('aria-rowindex')) - 1,
    start: Number(/translateY\((-?[\d.]+)px\)/.exec(row.style.transform)?.[1]),
  }));
}

/** The rows whose tiles are in the scroller's view (drawn where its offset shows them). */
function rowsInView(): number[] {
  const top = scroller().scrollTop;
  return drawnRows()
    .filter(({ start }) => start + ROW > top && start < top + VIEW)
    .map(({ row }) => row);
}

/** The height of the box the rows are drawn in. */
function drawnHeight(): number {
  return Number.parseFloat(document.querySelector<HTMLElement>('[role="grid"]')!.style.height);
}

describe('the gallery grid at a million tasks', () => {
  it('maps its scrollbar onto every row: the middle shows the middle rows, the end the last', () => {
    renderGrid(200, TOTAL);
    // Scaled: the box is a page's limit, not the 97.5 million px of the rows.
    expect(drawnHeight()).toBe(15_000_000);
    act(() => {
      scroller().scrollTop = (drawnHeight() - VIEW) / 2;
    });
    const middle = rowsInView();
    expect(middle).toContain(ROWS / 2);
    expect(Math.abs(middle[0]! - (ROWS / 2 - 1))).toBeLessThanOrEqual(1);
    expect(middle.length).toBeLessThanOrEqual(Math.ceil(VIEW / ROW) + 1);

    act(() => {
      scroller().scrollTop = drawnHeight() - VIEW;
    });
    expect(rowsInView()).toContain(ROWS - 1);
    const last = drawnRows().find(({ row }) => row === ROWS - 1)!;
    // Its tile (187 px) ends within the view, above the padding below the rows.
    expect(last.start + 187).toBeLessThanOrEqual(scroller().scrollTop + VIEW - 16);
  });

  it('scrolls a row not drawn into view for the key that moves there, and focuses its tile', () => {
    renderGrid(200, TOTAL);
    act(() => document.querySelector<HTMLElement>('[data-index="0"]')!.focus());
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    // The last row is in view; its page came by position, and its last tile has the focus.
    expect(rowsInView()).toContain(ROWS - 1);
    expect(focusedKey()).toBe(itemKey(galleryItem({ n: TOTAL - 1 })));
    fireEvent.keyDown(document.activeElement!, { key: 'PageUp' });
    expect(focusedKey()).toBe(itemKey(galleryItem({ n: TOTAL - 1 - 3 * COLUMNS })));
    expect(rowsInView()).toContain(ROWS - 1 - 3);
  });

  it('draws the row holding the tab stop inside the box, however far from the view', () => {
    renderGrid(200, TOTAL);
    act(() => document.querySelector<HTMLElement>('[data-index="0"]')!.focus());
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(focusedKey()).toBe(itemKey(galleryItem({ n: TOTAL - 1 })));
    // Back at the top the last row stays drawn (it holds the focus), and in the middle too (the
    // page by position there has not the focused image: it is kept at its place, focused),
    // each inside the box the rows are drawn in, not tens of millions of px away from it (a
    // page scrolls as far as anything is drawn: past the box's end, the scrollbar's end).
    for (const [top, pinned] of [
      [0, ROWS - 1],
      [(drawnHeight() - VIEW) / 2, ROWS - 1],
    ] as const) {
      act(() => {
        scroller().scrollTop = top;
      });
      const far = drawnRows().find(({ row }) => row === pinned)!;
      expect(rowsInView()).not.toContain(pinned);
      expect(far.start).toBeGreaterThanOrEqual(0);
      expect(far.start + ROW).toBeLessThanOrEqual(drawnHeight());
      expect(focusedKey()).toBe(itemKey(galleryItem({ n: TOTAL - 1 })));
    }
  });

  it('draws the rows at its place again when shown after images came while it was hidden', () => {
    const { rerender } = render(<Grid loaded={200} total={TOTAL} />);
    scrollEventsFor(scroller());
    // A hidden element (display: none, another screen shown) reads 0 for its scroll offset.
    const element = scroller();
    const kept = Object.getOwnPropertyDescriptor(element, 'scrollTop')!;
    Object.defineProperty(element, 'scrollTop', {
      configurable: true,
      get: () => (element.clientHeight === 0 ? 0 : (kept.get!.call(element) as number)),
      set: kept.set!,
    });
    act(() => {
      scroller().scrollTop = 16 + 1000 * ROW;
    });
    const before = rowsInView()[0]!;
    expect(before).toBeGreaterThan(1000);
    resize('.gallery-grid', { width: 0, height: 0 });
    // More images counted while another screen is shown; then the gallery is shown again.
    rerender(<Grid loaded={200} total={TOTAL + 5000} />);
    resize('.gallery-grid', { width: 1000, height: VIEW });
    const scaledAt = rowsInView();
    expect(scaledAt.length).toBeGreaterThan(0);
    // The same place of the scrollbar: as far down the grid (a few more rows below it now).
    expect(Math.abs(scaledAt[0]! - before)).toBeLessThanOrEqual(before * 0.005);
  });
});

describe('the gallery grid, its tiles resized', () => {
  /** The place of the first tile in view and its row's top on screen. */
  function firstInView(): { index: number; onScreen: number } {
    const [row] = rowsInView();
    const drawn = drawnRows().find((r) => r.row === row)!;
    return { index: row! * Number(gridColumns()), onScreen: drawn.start - scroller().scrollTop };
  }
  const gridColumns = () => document.querySelector('[role="grid"]')?.getAttribute('aria-colcount');

  it.each([
    ['a wider window: larger tiles in as many columns', { width: 1050, height: VIEW }],
    ['a wider window: more columns', { width: 1600, height: VIEW }],
    ['a narrower window: fewer columns', { width: 520, height: VIEW }],
  ])('keeps the first tile in view where it was: %s', (_, size) => {
    renderGrid(10_000, 10_000);
    act(() => {
      scroller().scrollTop = 16 + 100 * ROW + 40;
    });
    const before = firstInView();
    expect(before).toEqual({ index: 100 * COLUMNS, onScreen: -40 });
    resize('.gallery-grid', size);
    const after = firstInView();
    // The tile's row: the one it is in now, kept where it was on screen.
    expect(Math.floor(after.index / Number(gridColumns()))).toBe(
      Math.floor(before.index / Number(gridColumns())),
    );
    expect(after.onScreen).toBe(-40);
  });

  it('keeps the first tile in view where it was at a new thumbnail size, far down a million', () => {
    const { rerender } = render(<Grid loaded={200} total={TOTAL} />);
    scrollEventsFor(scroller());
    act(() => {
      scroller().scrollTop = drawnHeight() / 3;
    });
    const before = firstInView();
    rerender(<Grid loaded={200} total={TOTAL} minTile={300} />);
    expect(gridColumns()).toBe('3');
    const after = firstInView();
    expect(after.index).toBeLessThanOrEqual(before.index);
    expect(after.index + 3).toBeGreaterThan(before.index);
    expect(Math.abs(after.onScreen - before.onScreen)).toBeLessThan(1);
  });
});
