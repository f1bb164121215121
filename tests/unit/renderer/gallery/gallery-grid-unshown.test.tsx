/**
 * The grid of a large gallery before it is first shown: the app draws the gallery hidden as it
 * starts (app.tsx), where the grid measures 0 × 0. It lays out no rows then (at 2.5 million
 * images its one column of 1-px tiles was a row per image: the virtualizer's arrays of them built
 * at start and held), and the click that shows it walks the rows once. The virtualizer walks every
 * row at each pass, reading its size cache (a Map) once a row: the Map reads counted while the grid
 * is shown are the rows walked. jsdom lays nothing out: the sizes are the harness's.
 */
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GalleryGrid } from '../../../../renderer/features/gallery/gallery-grid';
import { galleryItems } from './gallery-builders';
import { galleryLayout, resize } from './gallery-harness';

galleryLayout();
afterEach(() => vi.restoreAllMocks());

/** A million bench tasks' images; 200 of them loaded (the first page). */
const TOTAL = 2_500_000;
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

describe('the gallery grid before it is first shown', () => {
  it('lays out no rows while it has no size, walks its rows once when shown, again at a new tile size', () => {
    resize('.gallery-grid', { width: 0, height: 0 });
    renderGrid(200, TOTAL);
    // Hidden: the padding alone, no row (there was a row per image, 9 px each).
    expect(rowsBox().style.height).toBe(`${String(PADDING)}px`);
    expect(document.querySelectorAll('[role="gridcell"]')).toHaveLength(0);

    const reads = vi.spyOn(Map.prototype, 'get');
    resize('.gallery-grid', { width: 1000, height: 600 });
    const rows = TOTAL / COLUMNS;
    expect(rowsBox().getAttribute('aria-rowcount')).toBe(String(rows));
    expect(document.querySelectorAll('[role="gridcell"] img').length).toBeGreaterThan(0);
    // One pass over the rows at the show (there were two: the count's, then the height's).
    expect(reads.mock.calls.length).toBeGreaterThanOrEqual(rows);
    expect(reads.mock.calls.length).toBeLessThan(1.5 * rows);
    reads.mockRestore();

    // A new tile size at the same columns (1050 px: 197 px tiles, rows 205 px apart, not 195)
    // lays the rows out again.
    expect(rowStart(1)).toBe(16 + 195);
    resize('.gallery-grid', { width: 1050, height: 600 });
    expect(rowStart(1)).toBe(16 + 205);
  });
});
