/**
 * A batch's card shows every result, on as many lines as the feed's width needs (two at most
 * while closed; then the last cell is "+N", and an opened card shows every line): at 800 and
 * 1280 px windows a batch of ten shows ten.
 */
import { describe, expect, it } from 'vitest';
import {
  batchGeometry,
  batchMetrics,
  MAX_LINES,
} from '../../../../renderer/features/tasks/batch-geometry';

const compact = batchMetrics(16, false);

/**
 * The feed's content width in a window `w` px wide: the sidebar (3.25rem below 60rem, else
 * 11rem), the list's padding (1rem each side) and a 15 px scrollbar.
 */
const feedWidth = (w: number): number => w - (w < 960 ? 52 : 176) - 32 - 15;

describe('a batch card', () => {
  it('shows all ten results of a batch in an 800 px and a 1280 px window', () => {
    for (const window of [800, 1280]) {
      const card = batchGeometry(10, feedWidth(window), compact, false);
      expect(card).toMatchObject({ shown: 10, hidden: 0, toggle: null });
      expect(card.lines).toBeLessThanOrEqual(MAX_LINES);
      // The grid fits the card: no result is cut at the end of a line.
      const grid = card.columns * compact.tile + (card.columns - 1) * compact.gap;
      expect(grid).toBeLessThanOrEqual(feedWidth(window) - 2 * compact.pad);
    }
    expect(batchGeometry(10, feedWidth(1280), compact, false).lines).toBe(1);
  });

  it('counts its height from its lines: the head, each line of results, the gaps', () => {
    const one = batchGeometry(3, 1000, compact, false);
    expect(one).toMatchObject({ columns: 3, lines: 1 });
    expect(one.height).toBe(2 * compact.pad + compact.head + compact.gap + compact.tile + 1);
    const two = batchGeometry(10, 700, compact, false);
    expect(two.lines).toBe(2);
    expect(two.height - one.height).toBe(compact.tile + compact.gap);
  });

  it('puts a "+N" in the last cell past two lines, and shows every line once opened', () => {
    // Two columns (a window at 200 % zoom): three results and "+7".
    const closed = batchGeometry(10, 250, compact, false);
    expect(closed).toMatchObject({ columns: 2, lines: 2, shown: 3, hidden: 7, toggle: 'more' });
    const open = batchGeometry(10, 250, compact, true);
    expect(open).toMatchObject({ shown: 10, hidden: 0, toggle: 'fewer', lines: 6 });
    // A hundred tasks from the command line, in a wide feed.
    expect(batchGeometry(100, 1600, compact, false)).toMatchObject({ shown: 29, hidden: 71 });
  });

  it('keeps at least one column, and all on one line while the width is not known', () => {
    expect(batchGeometry(4, 40, compact, false)).toMatchObject({ columns: 1, shown: 1, hidden: 3 });
    expect(batchGeometry(10, 0, compact, false)).toMatchObject({ columns: 10, lines: 1 });
  });

  it('takes larger results in a wide window', () => {
    expect(batchMetrics(16, true).tile).toBeGreaterThan(compact.tile);
  });
});
