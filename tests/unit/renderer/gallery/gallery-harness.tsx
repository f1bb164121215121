/**
 * Renders the gallery screen over the page's API (gallery-wired.tsx: the real main behind the
 * contract's interceptor) with a made-up layout: jsdom has no layout, so
 * the grid's scroller and the viewer's stage get sizes here, ResizeObserver is driven by the
 * test, and a scroll position set by code fires `scroll` as a browser would. The layout is the
 * test's own ({@link galleryLayout}), undone after it.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { pageUser } from '../page-user';
import { beforeEach, expect, vi } from 'vitest';
import { LiveRegion } from '../../../../renderer/components/live-region';
import { StatusArea } from '../../../../renderer/shell/status-area';
import { GalleryView } from '../../../../renderer/features/gallery/gallery-view';
import { initStore, useAppStore } from '../../../../renderer/store/app-store';
import { afterEachTest } from '../../../support/after-each-test';

export interface Size {
  width: number;
  height: number;
}

const sizes = new Map<string, Size>([
  ['.gallery-grid', { width: 1000, height: 600 }],
  ['.viewer-stage', { width: 800, height: 600 }],
]);

function sizeOf(element: HTMLElement): Size | undefined {
  for (const [selector, size] of sizes) if (element.matches(selector)) return size;
  return undefined;
}

/** A ResizeObserver the test drives with {@link resize}. */
class TestResizeObserver {
  static readonly all = new Set<TestResizeObserver>();
  private readonly targets = new Set<Element>();
  constructor(private readonly callback: ResizeObserverCallback) {
    TestResizeObserver.all.add(this);
  }
  observe(target: Element): void {
    this.targets.add(target);
  }
  unobserve(target: Element): void {
    this.targets.delete(target);
  }
  disconnect(): void {
    this.targets.clear();
    TestResizeObserver.all.delete(this);
  }
  notify(): void {
    const entries = [...this.targets].map((target) => {
      const size = sizeOf(target as HTMLElement) ?? { width: 0, height: 0 };
      return {
        target,
        contentRect: {
          ...size,
          x: 0,
          y: 0,
          top: 0,
          left: 0,
          right: size.width,
          bottom: size.height,
        },
      } as unknown as ResizeObserverEntry;
    });
    if (entries.length > 0) this.callback(entries, this as unknown as ResizeObserver);
  }
}

/** Whether the running test has the made-up layout ({@link installLayout}). */
let installed = false;

/**
 * Gives the running test the gallery's layout: the grid's and the stage's sizes, and the
 * ResizeObserver the test drives; undone after the test (below). Installed test by test, not when
 * this module is first imported: in the `renderer-wired` project a thread's files share their
 * modules, and a layout left installed would reach the files after this one.
 */
function installLayout(): void {
  if (installed) return;
  installed = true;
  for (const [name, side] of [
    ['clientWidth', 'width'],
    ['clientHeight', 'height'],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return sizeOf(this)?.[side] ?? 0;
      },
    });
  }
  // Taken off after the test by the renderer's setup (vi.unstubAllGlobals).
  vi.stubGlobal('ResizeObserver', TestResizeObserver);
}

/**
 * The made-up layout for every test of the describe (or file) that calls this, from the test's
 * start: wiredGallery and wiredLargeGallery call it, and mountGallery installs it too.
 */
export function galleryLayout(): void {
  beforeEach(installLayout);
}

const cleanups: Array<() => void> = [];
afterEachTest(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
  sizes.set('.gallery-grid', { width: 1000, height: 600 });
  sizes.set('.viewer-stage', { width: 800, height: 600 });
  if (!installed) return;
  installed = false;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  TestResizeObserver.all.clear();
});

/** Changes the layout size of the elements matching `selector` and tells the observers. */
export function resize(selector: string, size: Size): void {
  sizes.set(selector, size);
  act(() => {
    for (const observer of TestResizeObserver.all) observer.notify();
  });
}

export function scroller(): HTMLElement {
  const element = document.querySelector<HTMLElement>('.gallery-grid');
  if (!element) throw new Error('no grid');
  return element;
}

/** Makes code that sets `scrollTop` fire `scroll`, as a browser does. */
export function scrollEventsFor(element: HTMLElement): void {
  let top = 0;
  Object.defineProperty(element, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (value: number) => {
      const next = Math.max(0, value);
      if (next === top) return;
      top = next;
      element.dispatchEvent(new Event('scroll'));
    },
  });
}

/** Scrolls the grid as the user would. */
export function scrollGrid(top: number): void {
  act(() => {
    scroller().scrollTop = top;
  });
}

/**
 * The gallery view with the toasts and the live region, over whatever API the page has now, once
 * its first page is in; `events`: the store listens to main's events (as the app does).
 */
export async function mountGallery(events = false) {
  installLayout();
  useAppStore.setState({ view: 'gallery' });
  if (events) cleanups.push(initStore());
  const user = pageUser();
  const result = render(
    <>
      <GalleryView />
      <StatusArea />
      <LiveRegion />
    </>,
  );
  await waitFor(() => expect(useAppStore.getState().galleryStatus).not.toBe('loading'));
  const grid = document.querySelector<HTMLElement>('.gallery-grid');
  if (grid) scrollEventsFor(grid);
  return { ...result, user };
}

/** The key of the focused tile, if a tile has the focus. */
export function focusedKey(): string | undefined {
  const active = document.activeElement as HTMLElement | null;
  return active?.getAttribute('role') === 'gridcell' ? active.dataset['key'] : undefined;
}

export function tile(key: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[data-key="${key}"]`);
  if (!element) throw new Error(`no tile ${key}`);
  return element;
}

export const keyOf = (index: number): string => `seed-${String(index).padStart(6, '0')}/0`;

export { seriousViolations } from '../axe-check';

export { screen };
