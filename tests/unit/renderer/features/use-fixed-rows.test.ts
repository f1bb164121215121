import { describe, expect, it } from 'vitest';
import {
  offsetToShow,
  spanOf,
  visibleRange,
} from '../../../../renderer/features/tasks/use-fixed-rows';

describe('the fixed-row window', () => {
  it('covers the rows the viewport touches, partly shown ones included', () => {
    expect(spanOf({ top: 0, height: 300 }, 100)).toEqual({ startRow: 0, endRow: 3 });
    expect(spanOf({ top: 150, height: 300 }, 100)).toEqual({ startRow: 1, endRow: 5 });
    // A viewport with no height yet (before layout) still shows the first row.
    expect(spanOf({ top: 0, height: 0 }, 100)).toEqual({ startRow: 0, endRow: 1 });
    expect(spanOf({ top: -40, height: 100 }, 100)).toEqual({ startRow: 0, endRow: 1 });
  });

  it('adds the overscan on both sides and stays inside the list', () => {
    expect(visibleRange({ startRow: 10, endRow: 15 }, 100_000, 6)).toEqual({ first: 4, last: 20 });
    expect(visibleRange({ startRow: 0, endRow: 5 }, 3, 6)).toEqual({ first: 0, last: 2 });
    expect(visibleRange({ startRow: 99_998, endRow: 100_003 }, 100_000, 6)).toEqual({
      first: 99_992,
      last: 99_999,
    });
    expect(visibleRange({ startRow: 0, endRow: 5 }, 0, 6)).toEqual({ first: 0, last: -1 });
  });

  it('scrolls the least distance that shows a row whole', () => {
    const view = { top: 1_000, height: 400 };
    expect(offsetToShow(12, view, 100)).toBeNull();
    expect(offsetToShow(9, view, 100)).toBe(900);
    expect(offsetToShow(14, view, 100)).toBe(1_100);
    expect(offsetToShow(0, { top: 0, height: 50 }, 100)).toBeNull();
  });
});
