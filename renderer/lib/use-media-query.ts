/**
 * Whether a CSS media query matches, as React reads it: an external store, so a window that
 * crosses the query renders the change in the frame where the query changed. A state set from
 * the `change` event would wait for a later task, and the page would be drawn once at the new
 * size with the layout of the old one (a header's filters wrapped over several rows, rows of
 * the wrong height).
 */
import { useSyncExternalStore } from 'react';

/**
 * One list per query, kept: a MediaQueryList is live (its `matches` follows the window), and
 * `matchMedia` builds and evaluates a new one at each call. React reads the snapshot at every
 * render of every component that asks and again after each commit, so a new list per read was a
 * query parsed and evaluated several times for each change the page draws (a star typed redraws
 * the gallery's header, which asks two).
 */
const lists = new WeakMap<Window['matchMedia'], Map<string, MediaQueryList>>();

function listOf(query: string): MediaQueryList | null {
  const match = typeof window.matchMedia === 'function' ? window.matchMedia : null;
  if (!match) return null;
  // Kept per `matchMedia` (a test stands in its own): a list is the window's that made it.
  let byQuery = lists.get(match);
  if (!byQuery) lists.set(match, (byQuery = new Map()));
  let list = byQuery.get(query);
  if (!list) byQuery.set(query, (list = match.call(window, query)));
  return list;
}

/** Whether `query` matches now (false where the page has no `matchMedia`). */
function mediaMatches(query: string): boolean {
  return listOf(query)?.matches ?? false;
}

const subscribers = new Map<string, (onChange: () => void) => () => void>();

/** One subscribe function per query, so React keeps its subscription across renders. */
function subscribeTo(query: string): (onChange: () => void) => () => void {
  let subscribe = subscribers.get(query);
  if (!subscribe) {
    subscribe = (onChange) => {
      const list = listOf(query);
      if (!list) return () => undefined;
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    };
    subscribers.set(query, subscribe);
  }
  return subscribe;
}

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    subscribeTo(query),
    () => mediaMatches(query),
    () => false,
  );
}
