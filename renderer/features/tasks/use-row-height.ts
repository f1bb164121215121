/**
 * The history's row sizes in px: a task's row is compact (5.5rem, results 4.5rem square) in most
 * windows, taller (7rem, results 6rem square) in wide windows, where the prompt moves to a column
 * on the left and the list has the whole height (tasks.css uses the same query); a window that
 * crosses the width changes it for every row at once. A batch's card is as tall as its results
 * need, in the same rem (batch-geometry.ts); the feed adds the places up (use-fixed-rows.ts).
 */
import { useMemo } from 'react';
import { useMediaQuery } from '../../lib/use-media-query';
import { batchMetrics, type BatchMetrics } from './batch-geometry';

/** Wide windows: as the `@media (min-width: 100rem)` rules of tasks.css. */
const WIDE_QUERY = '(min-width: 100rem)';
/** 6.5rem before batches were grouped; 5.5rem now, 7rem where the width allows larger results. */
const ROW_REM = 5.5;
const WIDE_ROW_REM = 7;

/** The page's root font size in px (16 unless the user changed it). */
function rootRem(): number {
  const root = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Number.isFinite(root) && root > 0 ? root : 16;
}

/** The sizes of the feed's rows, in px: a task's row, and a batch card's parts. */
export interface FeedMetrics {
  readonly rowHeight: number;
  readonly batch: BatchMetrics;
}

function feedMetrics(wide: boolean): FeedMetrics {
  const rem = rootRem();
  return {
    rowHeight: Math.round(rem * (wide ? WIDE_ROW_REM : ROW_REM)),
    batch: batchMetrics(rem, wide),
  };
}

/** The row sizes for the window now, changed in the frame it crosses the width (use-media-query.ts). */
export function useFeedMetrics(): FeedMetrics {
  const wide = useMediaQuery(WIDE_QUERY);
  return useMemo(() => feedMetrics(wide), [wide]);
}
