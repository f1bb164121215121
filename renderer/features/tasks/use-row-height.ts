/**
 * The history's row height in px: compact rows (5.5rem, results 4.5rem square) in most windows,
 * taller ones (7rem, results 6rem square) in wide windows, where the prompt moves to a column on
 * the left and the list has the whole height (tasks.css uses the same query). Every row has the
 * same height, so the list stays arithmetic (use-fixed-rows.ts); a window that crosses the width
 * changes it for every row at once.
 */
import { useEffect, useState } from 'react';

/** Wide windows: as the `@media (min-width: 100rem)` rules of tasks.css. */
const WIDE_QUERY = '(min-width: 100rem)';
/** 6.5rem before batches were grouped; 5.5rem now, 7rem where the width allows larger results. */
const ROW_REM = 5.5;
const WIDE_ROW_REM = 7;

function isWide(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(WIDE_QUERY).matches;
}

/** The row height in px at the page's root font size. */
function rowHeightPx(wide: boolean): number {
  const root = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  const rem = Number.isFinite(root) && root > 0 ? root : 16;
  return Math.round(rem * (wide ? WIDE_ROW_REM : ROW_REM));
}

export function useRowHeight(): number {
  const [wide, setWide] = useState(isWide);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const media = window.matchMedia(WIDE_QUERY);
    const update = (): void => setWide(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return rowHeightPx(wide);
}
