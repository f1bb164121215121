import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  offsetToShow,
  rowPlaces,
  spanOf,
  useFixedRows,
  visibleRange,
} from '../../../../renderer/features/tasks/use-fixed-rows';
import { MAX_FEED_HEIGHT } from '../../../../renderer/lib/feed-scroll';

/** `count` rows of 100 px, none of them a batch. */
const even = (count: number) => rowPlaces([], count, 100);

describe('the feed’s window', () => {
  it('covers the rows the viewport touches, partly shown ones included', () => {
    expect(spanOf({ top: 0, height: 300 }, even(100))).toEqual({ startRow: 0, endRow: 3 });
    expect(spanOf({ top: 150, height: 300 }, even(100))).toEqual({ startRow: 1, endRow: 5 });
    // A viewport with no height yet (before layout) still shows the first row.
    expect(spanOf({ top: 0, height: 0 }, even(100))).toEqual({ startRow: 0, endRow: 1 });
    expect(spanOf({ top: -40, height: 100 }, even(100))).toEqual({ startRow: 0, endRow: 1 });
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
    expect(offsetToShow(12, view, even(100))).toBeNull();
    expect(offsetToShow(9, view, even(100))).toBe(900);
    expect(offsetToShow(14, view, even(100))).toBe(1_100);
    expect(offsetToShow(0, { top: 0, height: 50 }, even(100))).toBeNull();
  });
});

describe('rows of their own heights (a batch’s card is as tall as its results need)', () => {
  // Loaded rows: 100, a 270 px card, 100, a 165 px card; then 96 rows not loaded, 100 each.
  const places = rowPlaces([100, 270, 100, 165], 100, 100);

  it('puts each row after the ones before it, and the rows not loaded after the loaded ones', () => {
    expect([0, 1, 2, 3, 4, 5].map((row) => places.startOf(row))).toEqual([
      0, 100, 370, 470, 635, 735,
    ]);
    expect([1, 3, 4].map((row) => places.heightOf(row))).toEqual([270, 165, 100]);
    expect(places.total).toBe(635 + 96 * 100);
  });

  it('finds the row at any offset, at its edges and past either end', () => {
    expect([0, 99, 100, 369, 370, 634, 635, 734, 735].map((y) => places.rowAt(y))).toEqual([
      0, 0, 1, 1, 2, 3, 4, 4, 5,
    ]);
    expect(places.rowAt(-5)).toBe(0);
    expect(places.rowAt(1e9)).toBe(99);
  });

  it('spans and shows rows by their own heights', () => {
    expect(spanOf({ top: 120, height: 300 }, places)).toEqual({ startRow: 1, endRow: 3 });
    expect(spanOf({ top: 640, height: 200 }, places)).toEqual({ startRow: 4, endRow: 7 });
    // The card below the view is scrolled to its bottom edge; one above it, to its top.
    expect(offsetToShow(1, { top: 0, height: 300 }, places)).toBe(70);
    expect(offsetToShow(1, { top: 400, height: 300 }, places)).toBe(100);
    // A card taller than the view is shown from its top.
    expect(offsetToShow(1, { top: 0, height: 200 }, places)).toBe(100);
  });

  it('costs the same to ask at the end of 100,000 rows', () => {
    const many = rowPlaces(
      Array.from({ length: 50_000 }, (_, row) => (row % 10 === 0 ? 270 : 100)),
      100_000,
      100,
    );
    const end = many.total - 1;
    expect(many.rowAt(end)).toBe(99_999);
    expect(many.startOf(50_000)).toBe(5_000 * 270 + 45_000 * 100);
  });
});

describe('a feed taller than a page can lay out (a million tasks)', () => {
  const VIEW = 800;
  /** A scroller of the view's height: the page keeps its scrollTop, as a browser does. */
  function scroller() {
    const element = document.createElement('div');
    Object.defineProperty(element, 'clientHeight', { value: VIEW });
    return { current: element };
  }
  const scrollTo = (element: HTMLElement, top: number) =>
    act(() => {
      element.scrollTop = top;
      element.dispatchEvent(new Event('scroll'));
    });
  /** The rows in the view, by where they are drawn in the box the scroller scrolls. */
  const inView = (rows: readonly { index: number; start: number; height: number }[], top: number) =>
    rows.filter((row) => row.start + row.height > top && row.start < top + VIEW);

  it('reaches the last row, drawn in view at the bottom of a box the page can hold', () => {
    const places = rowPlaces([], 1_000_000, 100);
    const ref = scroller();
    const { result } = renderHook(() => useFixedRows({ scroller: ref, places, overscan: 2 }));
    expect(result.current.totalSize).toBe(MAX_FEED_HEIGHT);
    const end = MAX_FEED_HEIGHT - VIEW;
    scrollTo(ref.current, end);
    const shown = inView(result.current.rows, end);
    expect(shown.map((row) => row.index)).toEqual([
      999_992, 999_993, 999_994, 999_995, 999_996, 999_997, 999_998, 999_999,
    ]);
    expect(shown.at(-1)!.start + 100).toBeCloseTo(MAX_FEED_HEIGHT, 3);
    // Rows next to each other are drawn a row apart, as within the limit.
    expect(shown[1]!.start - shown[0]!.start).toBeCloseTo(100, 6);
  });

  it('scrolls a row far down into view, and the scrollbar’s middle shows the middle row', () => {
    const places = rowPlaces([], 1_000_000, 100);
    const ref = scroller();
    const { result } = renderHook(() => useFixedRows({ scroller: ref, places, overscan: 0 }));
    act(() => result.current.scrollToIndex(654_321));
    scrollTo(ref.current, ref.current.scrollTop);
    expect(inView(result.current.rows, ref.current.scrollTop).map((row) => row.index)).toContain(
      654_321,
    );
    const middle = (MAX_FEED_HEIGHT - VIEW) / 2;
    scrollTo(ref.current, middle);
    const first = inView(result.current.rows, middle)[0]!.index;
    expect(Math.abs(first - 500_000)).toBeLessThan(10);
  });

  it('draws a feed within the limit where its geometry says', () => {
    const places = rowPlaces([], 1_000, 100);
    const ref = scroller();
    const { result } = renderHook(() => useFixedRows({ scroller: ref, places, overscan: 0 }));
    scrollTo(ref.current, 50_000);
    expect(result.current.totalSize).toBe(100_000);
    for (const row of result.current.rows) expect(row.start).toBe(row.index * 100);
    expect(result.current.rows[0]!.index).toBe(500);
  });
});

describe('the first render, before the scroller is measured', () => {
  const VIEW = 800;
  function scroller(height = VIEW) {
    const element = document.createElement('div');
    Object.defineProperty(element, 'clientHeight', { value: height });
    return { current: element };
  }
  /** Each render's rows, by index. */
  function renders(options: Omit<Parameters<typeof useFixedRows>[0], 'scroller'>, height = VIEW) {
    const drawn: number[][] = [];
    const told: number[] = [];
    const ref = scroller(height);
    const onViewport = (measured: number) => void told.push(measured);
    renderHook(() => {
      const fixed = useFixedRows({ ...options, scroller: ref, onViewport });
      drawn.push(fixed.rows.map((row) => row.index));
      return fixed;
    });
    return { drawn, told, ref };
  }
  const inView = [0, 1, 2, 3, 4, 5, 6, 7];

  it('draws the rows of the viewport it was given, and no second render when the scroller is that tall', () => {
    for (const count of [1_000, 1_000_000]) {
      // A million rows: the feed drawn scaled, where the span also holds the viewport.
      const { drawn, told } = renders({
        places: rowPlaces([], count, 100),
        overscan: 0,
        initialViewport: VIEW,
      });
      expect(drawn).toEqual([inView]);
      expect(told).toEqual([VIEW]);
    }
  });

  it('draws the measured rows at once when the scroller is not as tall as given', () => {
    const places = rowPlaces([], 1_000, 100);
    expect(renders({ places, overscan: 0, initialViewport: 400 }).drawn).toEqual([
      [0, 1, 2, 3],
      inView,
    ]);
    expect(renders({ places, overscan: 0, initialViewport: 1_200 }).drawn.at(-1)).toEqual(inView);
    // None given: one row, then the rows in view.
    expect(renders({ places, overscan: 0 }).drawn).toEqual([[0], inView]);
  });

  it('tells the viewport when it changes, not at every scroll', () => {
    const { told, ref } = renders({ places: rowPlaces([], 1_000, 100), overscan: 0 });
    act(() => {
      ref.current.scrollTop = 250;
      ref.current.dispatchEvent(new Event('scroll'));
    });
    expect(told).toEqual([VIEW]);
  });
});
