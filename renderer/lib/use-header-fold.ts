/**
 * Whether the screens' headers fold their filters behind a "Filters" button (components/
 * header-panel.tsx). A narrow window (under 72rem: the filters laid out in the header would take
 * three rows, more in the longest languages) or a short one (under 42rem: 800x600, or 200 % zoom
 * of a 1280x800 window, where every header row is taken from the images and the history) folds
 * them. One media query, so the choice follows the window and the zoom, never the header's own
 * content: what folding does to the header cannot fold or unfold it again.
 *
 * Read as an external store, so a crossing renders in the frame where the query changed: a state
 * set from the change event would wait for a later task, and the unfolded header would be drawn
 * (wrapped over several rows) at the new size in between.
 */
import { useSyncExternalStore } from 'react';

/** The CSS pixels at which headers fold; styles that depend on the fold read the same class. */
export const HEADER_FOLD_QUERY = '(max-width: 72rem), (max-height: 42rem)';

function media(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(HEADER_FOLD_QUERY) : null;
}

function subscribe(onChange: () => void): () => void {
  const list = media();
  if (!list) return () => undefined;
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

function folds(): boolean {
  return media()?.matches ?? false;
}

export function useHeaderFold(): boolean {
  return useSyncExternalStore(subscribe, folds, () => false);
}
