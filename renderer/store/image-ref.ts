/** One image of one task, as the page names it to main (a leaf: every slice may use it). */
export interface ImageRef {
  readonly localId: string;
  readonly index: number;
}

/** The ref of an image (a gallery item, a ref), and nothing else of it. */
export const refOf = (item: ImageRef): ImageRef => ({ localId: item.localId, index: item.index });
