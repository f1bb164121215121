/**
 * Whether the screens' headers fold their filters behind a "Filters" button (components/
 * header-panel.tsx). A narrow window (under 72rem: the filters laid out in the header would take
 * three rows, more in the longest languages) or a short one (under 42rem: 800x600, or 200 % zoom
 * of a 1280x800 window, where every header row is taken from the images and the history) folds
 * them. One media query, so the choice follows the window and the zoom, never the header's own
 * content: what folding does to the header cannot fold or unfold it again.
 */
import { useEffect, useState } from 'react';

/** The CSS pixels at which headers fold; styles that depend on the fold read the same class. */
export const HEADER_FOLD_QUERY = '(max-width: 72rem), (max-height: 42rem)';

function folds(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(HEADER_FOLD_QUERY).matches;
}

export function useHeaderFold(): boolean {
  const [folded, setFolded] = useState(folds);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const media = window.matchMedia(HEADER_FOLD_QUERY);
    const update = (): void => setFolded(media.matches);
    update();
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return folded;
}
