/**
 * A feed's scroll offset kept through a language switch. app.tsx draws the window anew in a new
 * language (keyed on it), so a feed scrolled half-way came back at its top: the offset was the
 * scroller's own. The offset shown is read at each scroll (no store write: a scroll renders
 * nothing), handed to the store when the feed goes (ui-slice `feedTops`), and the feed drawn
 * again scrolls there once it is laid out (shown and as tall as its rows), which for the gallery
 * drawn hidden behind the Tasks screen is when it is first shown. Called before the hook that reads
 * where the view is (the rows' window), so that reading finds the offset gone back to.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { activeLocale } from '../i18n';
import { feedTopOf, scrollFeedTo } from '../lib/feed-scroll';
import { useAppStore } from './app-store';
import type { KeptFeed } from './ui-slice';

export function useKeptFeedTop(
  feed: KeptFeed,
  scroller: RefObject<HTMLElement | null>,
  /** The whole feed's height (px). */
  total: number,
): void {
  // Read at the first layout, not the first render: the window drawn anew renders before the one
  // it replaces has handed its offsets over (in the same commit, before any layout effect).
  const kept = useRef<number | null>(null);
  const restored = useRef(false);
  const language = useRef(activeLocale().tag);
  const height = useRef(total);
  height.current = total;

  // Every drawing until it is done: the feed is laid out in a later one (measured, shown)…
  const restore = (): void => {
    const element = scroller.current;
    // Only into another language: a feed taken down and drawn again in the same one (an empty
    // gallery's notice in its place a while) starts at its top, as it did.
    const saved = useAppStore.getState().feedTops[feed];
    const top = (kept.current ??= saved && saved.language !== language.current ? saved.top : 0);
    if (restored.current || top === 0) {
      restored.current = true;
      return;
    }
    // Laid out: shown, and its rows there (the gallery's grid is its padding until measured).
    if (!element || element.clientHeight === 0 || height.current - element.clientHeight < top)
      return;
    restored.current = true;
    scrollFeedTo(element, height.current, top);
  };
  useLayoutEffect(restore);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    // …or shown without a drawing of its own (another screen hidden, the window taller).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(restore);
    observer?.observe(element);
    const read = (): void => {
      // Hidden (another screen is shown): nothing to read, the last reading stands.
      if (element.clientHeight === 0) return;
      // Scrolled before it was laid out, by the user or the feed itself: that offset is kept.
      restored.current = true;
      kept.current = feedTopOf(element, height.current);
    };
    element.addEventListener('scroll', read, { passive: true });
    return () => {
      observer?.disconnect();
      element.removeEventListener('scroll', read);
      const top = kept.current ?? 0;
      useAppStore.getState().uiKeepFeedTop(feed, { top, language: language.current });
    };
    // restore reads refs only: the first drawing's is every drawing's.
  }, [feed, scroller]);
}
