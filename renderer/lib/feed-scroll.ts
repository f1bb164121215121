/**
 * Feeds taller than a page can lay out. Chromium measures layout in 1/64 px in a 32-bit integer,
 * so no box is taller than 2^25 px (33,554,431); a scroller whose content is taller is cut there,
 * and in a gallery of a few million images (or a history of a million tasks) everything past the
 * cut was out of reach. A feed taller than {@link MAX_FEED_HEIGHT} is drawn in a box of that
 * height, and the scroller's offset maps onto the feed's in proportion: the scrollbar spans the
 * whole feed, its ends are the feed's ends, and a scrolled pixel moves the feed by the ratio. A
 * feed within the limit is untouched (the ratio is 1, every function here the identity).
 *
 * The limit stays under 2^24 px, where a 32-bit float (the compositor's transforms) still holds
 * every whole pixel, so a row drawn near the end does not wobble.
 *
 * "Feed offset" below is a place in the whole feed (a row's start, as the list's geometry says);
 * "scroller offset" is the element's `scrollTop`.
 */

/** The tallest box a feed is drawn in, in CSS px. */
export const MAX_FEED_HEIGHT = 15_000_000;

/** How many feed pixels one scroller pixel moves (1 within the limit). */
export function feedRatio(total: number, viewport: number, max = MAX_FEED_HEIGHT): number {
  if (total <= max) return 1;
  const room = max - viewport;
  return room > 0 ? Math.max(1, (total - viewport) / room) : 1;
}

/** The height of the box the feed is drawn in. */
export function drawnHeight(total: number, max = MAX_FEED_HEIGHT): number {
  return Math.max(0, Math.min(total, max));
}

/** The feed offset a scroller offset shows. */
export function toFeedOffset(scrollTop: number, total: number, viewport: number): number {
  return Math.max(0, scrollTop) * feedRatio(total, viewport);
}

/** The scroller offset that shows a feed offset. */
export function toScrollerOffset(feedTop: number, total: number, viewport: number): number {
  return Math.max(0, feedTop) / feedRatio(total, viewport);
}

/**
 * Where a row starting at feed offset `start` is drawn in the box, while the scroller shows feed
 * offset `feedTop`: rows near the view keep their distances to it, one feed pixel per pixel.
 */
export function drawnStart(
  start: number,
  feedTop: number,
  total: number,
  viewport: number,
): number {
  return start + toScrollerOffset(feedTop, total, viewport) - feedTop;
}

/** The feed offset `element` shows now, for a feed `total` px tall. */
export function feedTopOf(element: HTMLElement, total: number): number {
  return toFeedOffset(element.scrollTop, total, element.clientHeight);
}

/** Scrolls `element` to show feed offset `feedTop` of a feed `total` px tall. */
export function scrollFeedTo(element: HTMLElement, total: number, feedTop: number): void {
  element.scrollTo({ top: toScrollerOffset(feedTop, total, element.clientHeight) });
}
