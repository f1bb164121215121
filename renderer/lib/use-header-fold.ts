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

/**
 * The gallery folds its filters in any window but a very large one: laid out in its header they
 * take two rows at 1280x800, rows taken from the images, which the gallery is for. Only a window
 * wide and tall enough for them on one row beside the title (about 1920x1080) shows them.
 */
const GALLERY_FOLD_QUERY = '(max-width: 110rem), (max-height: 56rem)';

export function useHeaderFold(): boolean {
  return useMediaQuery(HEADER_FOLD_QUERY);
}

/** Whether the gallery's header folds its filters: wherever the other headers do, and more. */
export function useGalleryHeaderFold(): boolean {
  const small = useHeaderFold();
  const notHuge = useMediaQuery(GALLERY_FOLD_QUERY);
  return small || notHuge;
}
