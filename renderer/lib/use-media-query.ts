/**
 * Whether a CSS media query matches, as React reads it: an external store, so a window that
 * crosses the query renders the change in the frame where the query changed. A state set from
 * the `change` event would wait for a later task, and the page would be drawn once at the new
 * size with the layout of the old one (a header's filters wrapped over several rows, rows of
 * the wrong height).
 */
import { useSyncExternalStore } from 'react';

function listOf(query: string): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
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
