/**
 * The grid of a large gallery before it is first shown and as it is shown: the app draws the
 * gallery hidden as it starts (app.tsx), where the grid measures 0 × 0. It lays out no rows then
 * (at 2.5 million images its one column of 1-px tiles was a row per image: a virtualizer's arrays
 * of them built at start and held), and showing it, scrolling it and resizing its tiles cost the
 * same at a million tasks as at 20,000 (grid-geometry.ts: rows placed by arithmetic). The general
 * virtualizer the grid had walked every row at each show and each new tile size, reading its size
 * cache (a Map) once a row: the Map reads are counted, 500,000 a walk at a million tasks. jsdom
 * lays nothing out: the sizes are the harness's.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GalleryGrid } from '../../../../renderer/features/gallery/gallery-grid';
import { feedRatio } from '../../../../renderer/lib/feed-scroll';
import { galleryItems } from './gallery-builders';
import { galleryLayout, resize, scroller, scrollEventsFor } from './gallery-harness';

galleryLayout();
afterEach(() => vi.restoreAllMocks());

/** A million bench tasks' images, and 20,000's; 200 of them loaded (the first page). */
const TOTAL = 2_500_000;
const SMALL = 50_000;
// 1000 px wide: 5 columns, rows 195 px apart; 16 px of padding above and below the rows.
const COLUMNS = 5;
const PADDING = 2 * 16;

function renderGrid(loaded: number, total: number) {
  return render(
    <GalleryGrid
      items={galleryItems(loaded)}
      hasMore={loaded < total}
      total={total}
      loadingMore={false}
      activeKey={null}
      onActiveChange={() => undefined}
      focusRequest={null}
      onOpen={() => undefined}
      onDelete={() => undefined}
      onRetry={() => undefined}
      onStartDrag={() => undefined}
      onLoadMore={() => undefined}
    />,
  );
}

function rowsBox(): HTMLElement {
  return screen.getByRole('grid', { name: 'Images' });
}

/** Where the grid draws its row `row` (px from the top of the rows). */
function rowStart(row: number): number {
  const drawn = document.querySelector<HTMLElement>(`[aria-rowindex="${String(row + 1)}"]`);
  const transform = drawn?.style.transform ?? '';
  return Number(/translateY\((-?[\d.]+)px\)/.exec(transform)?.[1]);
}

/**
 * The Map reads of each step with `total` images: shown (0 × 0 to 1000 × 600), scrolled to the
 * scrollbar's middle and on a row, given larger tiles (1050 px wide); and the rows drawn then.
 */
function costs(total: number) {
  resize('.gallery-grid', { width: 0, height: 0 });
  const view = renderGrid(200, total);
  scrollEventsFor(scroller());
  const reads = vi.spyOn(Map.prototype, 'get');
  const step = (run: () => void): number => {
    reads.mockClear();
    run();
    return reads.mock.calls.length;
  };
  const show = step(() => resize('.gallery-grid', { width: 1000, height: 600 }));
  // To the middle, then on a row (a row of the grid is fewer of the scroller's pixels when scaled).
  const drawn = Number.parseFloat(rowsBox().style.height);
  const ratio = feedRatio(16 * 2 + (total / COLUMNS) * 195, 600);
  const scroll = step(() => {
    for (const top of [(drawn - 600) / 2, (drawn - 600) / 2 + 195 / ratio]) actScroll(top);
  });
  const tiles = step(() => resize('.gallery-grid', { width: 1050, height: 600 }));
  reads.mockRestore();
  const rows = document.querySelectorAll('[role="row"]').length;
  view.unmount();
  return { show, scroll, tiles, rows };
}

function actScroll(top: number): void {
  act(() => {
    scroller().scrollTop = top;
  });
}

describe('the gallery grid before it is first shown', () => {
  it('lays out no rows while it has no size, and lays them out at a new tile size', () => {
    resize('.gallery-grid', { width: 0, height: 0 });
    renderGrid(200, TOTAL);
    // Hidden: the padding alone, no row (there was a row per image, 9 px each).
    expect(rowsBox().style.height).toBe(`${String(PADDING)}px`);
    expect(document.querySelectorAll('[role="gridcell"]')).toHaveLength(0);

    resize('.gallery-grid', { width: 1000, height: 600 });
    const rows = TOTAL / COLUMNS;
    expect(rowsBox().getAttribute('aria-rowcount')).toBe(String(rows));
    expect(document.querySelectorAll('[role="gridcell"] img').length).toBeGreaterThan(0);

    // A new tile size at the same columns (1050 px: 197 px tiles, rows 205 px apart, not 195)
    // lays the rows out again.
    expect(rowStart(1)).toBe(16 + 195);
    resize('.gallery-grid', { width: 1050, height: 600 });
    expect(rowStart(1)).toBe(16 + 205);
  });

  it('is shown, scrolled and resized at a million tasks for what it costs at 20,000', () => {
    const small = costs(SMALL);
    const large = costs(TOTAL);
    // The same rows drawn, and no walk over the 500,000 rows (nor over the small one's 10,000):
    // 50 times the rows, about the same reads (the grid's own, React's and jsdom's); a walk read
    // a row each, 500,000 at each step.
    expect(large.rows).toBe(small.rows);
    for (const step of ['show', 'scroll', 'tiles'] as const) {
      expect(small[step]).toBeLessThan(SMALL / COLUMNS / 2);
      expect(large[step]).toBeLessThan(small[step] * 1.3);
    }
  });
});
