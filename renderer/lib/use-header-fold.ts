/**
 * Whether the screens' headers fold their filters behind a "Filters" button (components/
 * header-panel.tsx). A narrow window (under 72rem: the filters laid out in the header would take
 * three rows, more in the longest languages) or a short one (under 42rem: 800x600, or 200 % zoom
 * of a 1280x800 window, where every header row is taken from the images and the history) folds
 * them. One media query, so the choice follows the window and the zoom, never the header's own
 * content: what folding does to the header cannot fold or unfold it again. Read in the frame the
 * window crosses the line (lib/use-media-query.ts).
 */
import { useMediaQuery } from './use-media-query';

/** The CSS pixels at which headers fold; styles that depend on the fold read the same class. */
export const HEADER_FOLD_QUERY = '(max-width: 72rem), (max-height: 42rem)';

export function useHeaderFold(): boolean {
  return useMediaQuery(HEADER_FOLD_QUERY);
}
