/** One image of one task, as the page names it to main (a leaf: every slice may use it). */
export interface ImageRef {
  readonly localId: string;
  readonly index: number;
}
