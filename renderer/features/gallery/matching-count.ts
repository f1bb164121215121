/**
 * How many images the gallery's filter matches, as every gallery surface says it (the header's
 * count, the viewer's and the Triage view's "Image 28 of 300"): the library's own count once main
 * has answered it, else the images loaded so far, marked "+" while more pages wait. A loaded page
 * is never said as the whole.
 */
export interface MatchingCount {
  readonly count: number;
  /** More images match than `count` says (the library's count is not known yet). */
  readonly more: boolean;
}

export function matchingCount(
  loaded: number,
  total: number | null,
  hasMore: boolean,
): MatchingCount {
  // A count older than what is loaded (images arrived since) is not the whole either.
  if (total !== null && total >= loaded) return { count: total, more: false };
  return { count: loaded, more: hasMore };
}
