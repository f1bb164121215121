/**
 * Which thumbnails the grid asks for while its view moves: a scrollbar dragged far passes pages
 * for a frame each, and their tiles ask for nothing (features/gallery/view-motion.ts); the page
 * the drag stops at asks at the frame after; a wheel's scroll (less than a screen a frame) asks
 * as it goes; a tile that leaves the page drops what it asked for. jsdom lays nothing out: the
 * grid gets its size from the harness, a scroll position set by code fires `scroll`, and the
 * animation frames are the test's own (each runs the scroll set in it, then the frame's callbacks,
 * then React draws: a browser's order).
 */
import { act, fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GalleryGrid } from '../../../../renderer/features/gallery/gallery-grid';
import { galleryItem } from './gallery-builders';
import { galleryLayout, scroller, scrollEventsFor } from './gallery-harness';

galleryLayout();

// 1000 × 600 px: 5 columns, rows 195 px apart, about 3 rows in view (harness).
const ROW = 195;
const COLUMNS = 5;
const VIEW = 600;

/** 10,000 images, each its own thumbnail (`t/<n>.webp`). */
const items = Array.from({ length: 10_000 }, (_, n) =>
  galleryItem({ n, image: { thumbnail: `t/${String(n)}.webp` } }),
);

/** The animation frames, run by the test. */
function manualFrames() {
  const queued = new Map<number, FrameRequestCallback>();
  let next = 0;
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    next += 1;
    queued.set(next, callback);
    return next;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => queued.delete(id));
  /** One frame: the scroll to `top` (if any), the frame's callbacks, then React's drawing. */
  return (top?: number) =>
    act(() => {
      if (top !== undefined) scroller().scrollTop = top;
      const callbacks = [...queued.values()];
      queued.clear();
      for (const callback of callbacks) callback(performance.now());
    });
}

function renderGrid() {
  const result = render(
    <GalleryGrid
      items={items}
      hasMore={false}
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
  scrollEventsFor(scroller());
  return result;
}

/** The number of each image whose thumbnail an <img> in the page asks for now. */
function asking(): number[] {
  return [...document.querySelectorAll('img')].flatMap((image) => {
    const match = /\/t\/(\d+)\.webp/.exec(image.getAttribute('src') ?? '');
    return match ? [Number(match[1])] : [];
  });
}

/** The images in the rows in view (the grid's own range: its tiles asked for first). */
function inView(): number[] {
  return [...document.querySelectorAll('img[fetchpriority="high"]')].map((image) =>
    Number(image.closest('[data-index]')?.getAttribute('data-index')),
  );
}

/** Images of the rows wholly or partly in a view whose top is at `top` (16 px of padding). */
function rowsAt(top: number): { first: number; last: number } {
  const rows = Array.from({ length: 10_000 / COLUMNS }, (_, row) => row).filter((row) => {
    const start = 16 + row * ROW;
    return start + ROW > top && start < top + VIEW;
  });
  return { first: rows[0]! * COLUMNS, last: (rows.at(-1)! + 1) * COLUMNS };
}

describe('the gallery grid, while its view moves', () => {
  it('asks for no thumbnail of the pages a drag passes, and for those it stops at the frame after', () => {
    const frame = manualFrames();
    renderGrid();
    const top = new Set(asking());
    expect(top.size).toBeGreaterThan(0);

    // The scrollbar's thumb from the top to the middle, a step a frame (the bench's drag).
    const asked = new Set<number>();
    const middle = (10_000 / COLUMNS / 2) * ROW;
    for (let step = 1; step <= 10; step += 1) {
      frame((middle * step) / 10);
      for (const n of asking()) if (!top.has(n)) asked.add(n);
    }
    // Held: the page it stopped at is drawn, and asks for nothing yet.
    expect(inView().length).toBeGreaterThan(0);
    expect(asked).toEqual(new Set());

    // The frame after the last step: the view stayed, its tiles ask.
    frame();
    for (const n of asking()) if (!top.has(n)) asked.add(n);
    const shown = inView();
    const { first, last } = rowsAt(middle);
    expect(shown.every((n) => n >= first && n < last)).toBe(true);
    expect([...asked].sort((a, b) => a - b)).toEqual(shown.sort((a, b) => a - b));
  });

  it('lets the rows drawn around the page a drag stopped at, above it as below, ask only once those in view arrived', () => {
    // The window is idle whenever asked: only the wait for the thumbnails in view holds a row back.
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    const whenIdle = () => act(() => idle.splice(0).forEach((callback) => callback()));
    const frame = manualFrames();
    renderGrid();
    const middle = (10_000 / COLUMNS / 2) * ROW;
    for (let step = 1; step <= 10; step += 1) frame((middle * step) / 10);
    frame();
    const shown = inView();
    expect(shown.length).toBeGreaterThan(0);
    const { first, last } = rowsAt(middle);
    const around = () => asking().filter((n) => n >= first - 2 * COLUMNS && n < last + 2 * COLUMNS);
    // Drawn: the rows in view and two on either side (use-grid-rows.ts), all with their tiles.
    const drawnAbove = document.querySelectorAll(`[data-index="${String(first - 1)}"]`);
    expect(drawnAbove).toHaveLength(1);

    whenIdle();
    // Only the tiles in view ask: a row above the view drew its tiles first, before those in
    // view had said they were on their way, and must still wait for them.
    expect(around().sort((a, b) => a - b)).toEqual([...shown].sort((a, b) => a - b));

    for (const image of document.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]'))
      fireEvent.load(image);
    whenIdle();
    const asked = around();
    expect(asked.filter((n) => n < first).length).toBe(2 * COLUMNS);
    expect(asked.filter((n) => n >= last).length).toBe(2 * COLUMNS);
  });

  it('counts no row in view of which only the gap below its tiles shows', () => {
    const frame = manualFrames();
    renderGrid();
    // 4 px into the 8 px gap below row 400's tiles (187 px tiles, rows 195 px apart).
    frame(16 + 400 * ROW + 191);
    frame();
    const shown = inView();
    expect(Math.min(...shown)).toBe(401 * COLUMNS);
    // Drawn around the view, it asks later like the rows above.
    expect(document.querySelector(`[data-index="${String(400 * COLUMNS)}"] img`)).not.toBeNull();
  });

  it('asks for a jump’s thumbnails at the first frame it stays, once', () => {
    const frame = manualFrames();
    renderGrid();
    frame(400 * ROW);
    expect(asking().filter((n) => n >= 400 * COLUMNS)).toEqual([]);
    frame();
    const { first, last } = rowsAt(400 * ROW);
    const asked = asking().filter((n) => n >= first && n < last);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.sort((a, b) => a - b)).toEqual(inView().sort((a, b) => a - b));
  });

  it('asks as it goes while scrolled less than a screen a frame (a wheel, a trackpad)', () => {
    const frame = manualFrames();
    renderGrid();
    for (let top = 120; top <= 40 * ROW; top += 120) {
      frame(top);
      // Every tile in view asks at the drawing that brought it in, no frame later.
      const shown = inView();
      expect(shown.length).toBeGreaterThan(0);
      expect(asking()).toEqual(expect.arrayContaining(shown));
    }
    // A scroll of a whole screen a frame (Page Down) is no jump either.
    frame(40 * ROW + VIEW);
    expect(asking()).toEqual(expect.arrayContaining(inView()));
  });

  it('keeps a tile’s thumbnail while it is drawn around the view, drops it once it left the page', () => {
    const frame = manualFrames();
    renderGrid();
    const [tile] = [...document.querySelectorAll<HTMLImageElement>('[data-index="5"] img')];
    expect(tile?.getAttribute('src')).toMatch(/\/t\/5\.webp/);
    // Out of view, in the rows drawn around it: it keeps what it asked for.
    for (let top = 120; top <= 480; top += 120) frame(top);
    expect(tile?.isConnected).toBe(true);
    expect(tile?.getAttribute('fetchpriority')).toBe('low');
    expect(tile?.getAttribute('src')).toMatch(/\/t\/5\.webp/);
    // Scrolled on until row 1 is neither in view nor drawn around it.
    for (let top = 600; top <= 8 * ROW; top += 120) frame(top);
    expect(document.querySelector('[data-index="5"]')).toBeNull();
    expect(tile?.isConnected).toBe(false);
    expect(tile?.hasAttribute('src')).toBe(false);
  });
});
