import { describe, expect, it } from 'vitest';
import {
  gridHeight,
  gridLayout,
  moveFor,
  rowAt,
  rowsInView,
  rowTop,
} from '../../../../renderer/features/gallery/grid-geometry';

describe('gridLayout', () => {
  it('fits as many columns as the width allows', () => {
    expect(gridLayout(800).columns).toBe(4);
    expect(gridLayout(1600).columns).toBe(9);
    expect(gridLayout(100).columns).toBe(1);
    expect(gridLayout(0).columns).toBe(1);
  });

  it('fills the width with square tiles and a gap', () => {
    const layout = gridLayout(800);
    expect(layout.tile * layout.columns + 8 * (layout.columns - 1)).toBeLessThanOrEqual(800);
    expect(layout.tile).toBeGreaterThanOrEqual(168);
    expect(layout.rowHeight).toBe(layout.tile + 8);
  });
});

describe('the rows of the grid', () => {
  it('places rows by arithmetic after the padding, and finds the row at an offset', () => {
    expect(rowTop(0, 195)).toBe(16);
    expect(rowTop(499_999, 195)).toBe(16 + 499_999 * 195);
    expect(gridHeight(500_000, 195)).toBe(32 + 500_000 * 195);
    expect(gridHeight(0, 195)).toBe(32);
    for (const row of [0, 1, 7, 250_000, 499_999]) {
      expect(rowAt(rowTop(row, 195), 195)).toBe(row);
      // The gap below a row's tiles is the row's.
      expect(rowAt(rowTop(row, 195) + 194.9, 195)).toBe(row);
    }
    expect(rowAt(0, 195)).toBe(0);
    expect(rowAt(15, 195)).toBe(0);
  });

  it('says which rows a view shows tiles of: every row whose tile it overlaps, as a walk over the rows finds', () => {
    for (const rowHeight of [9, 176, 195, 205, 408]) {
      for (const rows of [1, 2, 3, 40]) {
        const total = gridHeight(rows, rowHeight);
        for (const viewport of [17, 100, 600, 1000]) {
          // Every 2.5 px from the top: each gap (8 px below a row's tiles) is met at three places.
          for (let top = 0; top <= Math.max(0, total - viewport); top += 2.5) {
            const all = Array.from({ length: rows }, (_, row) => row);
            const overlap = (extent: number) =>
              all.filter((row) => {
                const start = rowTop(row, rowHeight);
                return start + extent > top && start < top + viewport;
              });
            // A row only the gap below its tiles is in view of shows no tile; a view of a gap and
            // the padding alone has the row its top is in.
            const tiles = overlap(rowHeight - 8);
            const rowsOverlapped = overlap(rowHeight);
            const expected = {
              first: (tiles.length > 0 ? tiles : rowsOverlapped)[0],
              last: rowsOverlapped.at(-1),
            };
            expect(rowsInView(top, viewport, rows, rowHeight)).toEqual(expected);
          }
        }
      }
    }
    // The gallery bench's drag to the middle stopped 4 px into the gap below a row (176 px rows):
    // that row's tiles are not in view.
    expect(rowsInView(rowTop(4997, 176) + 172, 712, 10_000, 176)).toEqual({
      first: 4998,
      last: 5002,
    });
    expect(rowsInView(0, 600, 0, 195)).toEqual({ first: 0, last: -1 });
  });
});

describe('moveFor', () => {
  const at = (index: number, key: string, count = 10) =>
    moveFor(key, { index, count, columns: 4, pageRows: 2 });

  it('moves by one across and by a row up and down', () => {
    expect(at(5, 'ArrowRight')).toBe(6);
    expect(at(5, 'ArrowLeft')).toBe(4);
    expect(at(5, 'ArrowDown')).toBe(9);
    expect(at(5, 'ArrowUp')).toBe(1);
  });

  it('stops at the edges', () => {
    expect(at(0, 'ArrowLeft')).toBe(0);
    expect(at(9, 'ArrowRight')).toBe(9);
    expect(at(1, 'ArrowUp')).toBe(1);
    expect(at(9, 'ArrowDown')).toBe(9);
  });

  it('lands on the last image when the row below is short', () => {
    expect(at(7, 'ArrowDown')).toBe(9);
  });

  it('jumps to the ends and by pages', () => {
    expect(at(5, 'Home')).toBe(0);
    expect(at(5, 'End')).toBe(9);
    expect(at(1, 'PageDown', 40)).toBe(9);
    expect(at(37, 'PageDown', 40)).toBe(37);
    expect(at(30, 'PageDown', 40)).toBe(38);
    expect(at(30, 'PageUp', 40)).toBe(22);
    expect(at(6, 'PageUp', 40)).toBe(2);
  });

  it('ignores other keys and empty grids', () => {
    expect(at(0, 'a')).toBeNull();
    expect(moveFor('ArrowRight', { index: 0, count: 0, columns: 3, pageRows: 1 })).toBeNull();
  });
});
