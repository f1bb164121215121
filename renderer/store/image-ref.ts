/** One image of one task, as the page names it to main (a leaf: every slice may use it). */
export interface ImageRef {
  readonly localId: string;
  readonly index: number;
}

/** The ref of an image (a gallery item, a ref), and nothing else of it. */
export const refOf = (item: ImageRef): ImageRef => ({ localId: item.localId, index: item.index });

/**
 * The refs of `items`, or `refs` itself when they name the same images in the same order: a
 * rating or a saved image changes a record, not the list, and a list the views hold unchanged
 * keeps every selector over it (and the records table's holders) from starting again.
 */
export function refsOf<Refs extends readonly ImageRef[]>(
  refs: Refs,
  items: readonly ImageRef[],
): Refs | ImageRef[] {
  const same =
    refs.length === items.length &&
    items.every((item, n) => refs[n]?.localId === item.localId && refs[n].index === item.index);
  return same ? refs : items.map(refOf);
}
