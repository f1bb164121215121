/**
 * The size of a batch's card in the task feed: its prompt and actions on top, then its results
 * as a grid that shows them all, on as many lines as they need up to {@link MAX_LINES}; past
 * that the last cell is a "+N" that opens the rest (the card then shows every line). Pure
 * arithmetic on the feed's width, so the feed knows every row's height before drawing it
 * (use-fixed-rows.ts); the card draws with the same numbers (task-batch-row.tsx), so what is
 * drawn and what was counted cannot disagree.
 */

/** The card's sizes, in px (from rem, so they follow the zoom and the root font size). */
export interface BatchMetrics {
  /** A result's square. */
  readonly tile: number;
  /** Between results, and between the head and the grid. */
  readonly gap: number;
  /**
   * The head (prompt, the batch's line, its own actions): its usual height, or the height a drawn
   * card reported (its words wrap: use-batch-cards.ts).
   */
  readonly head: number;
  /** The card's padding on each side. */
  readonly pad: number;
}

/** Lines of results a closed card shows before the "+N". */
export const MAX_LINES = 2;

const REM = {
  compact: { tile: 6, gap: 0.5, head: 2.75, pad: 0.5 },
  wide: { tile: 7.5, gap: 0.5, head: 2.75, pad: 0.5 },
} as const;

/** The metrics at root font size `rem` px; larger results in wide windows (use-row-height.ts). */
export function batchMetrics(rem: number, wide: boolean): BatchMetrics {
  const sizes = wide ? REM.wide : REM.compact;
  return {
    tile: Math.round(sizes.tile * rem),
    gap: Math.round(sizes.gap * rem),
    head: Math.round(sizes.head * rem),
    pad: Math.round(sizes.pad * rem),
  };
}

export interface BatchGeometry {
  /** Results on a line. */
  readonly columns: number;
  /** Lines of cells (results, and the "+N" or "Show fewer" cell). */
  readonly lines: number;
  /** Results shown, from the first. */
  readonly shown: number;
  /** Results behind the "+N" (0 when every one shows). */
  readonly hidden: number;
  /** A cell after the results: "+N" (closed, some hidden) or "Show fewer" (opened). */
  readonly toggle: 'more' | 'fewer' | null;
  /** The card's height in px, its bottom border included. */
  readonly height: number;
  /** The sizes it was counted from (the card draws with them). */
  readonly metrics: BatchMetrics;
}

/**
 * The card of `size` results in a feed `width` px wide (its content box); `open` when the user
 * opened its "+N". A width not known yet (0) counts as room for every result on one line.
 */
export function batchGeometry(
  size: number,
  width: number,
  metrics: BatchMetrics,
  open: boolean,
): BatchGeometry {
  const { tile, gap, head, pad } = metrics;
  const room = width > 0 ? width - 2 * pad : Number.POSITIVE_INFINITY;
  const columns = Math.max(1, Math.min(size, Math.floor((room + gap) / (tile + gap))));
  const fits = size <= columns * MAX_LINES;
  const toggle = fits ? null : open ? 'fewer' : 'more';
  const shown = fits || open ? size : columns * MAX_LINES - 1;
  const cells = shown + (toggle === null ? 0 : 1);
  const lines = Math.ceil(cells / columns);
  const height = 2 * pad + head + gap + lines * tile + (lines - 1) * gap + 1;
  return { columns, lines, shown, hidden: size - shown, toggle, height, metrics };
}
