/**
 * The image kept from a page loaded by position when the next such page does not reach it: the
 * grid's active tile (its tab stop, and the focus when the grid has it). Scrolled far enough, the
 * grid loads a page at the new place, and the tile that had the focus went with the old one: the
 * focus fell to the page and a keyboard user lost their place. Kept, it stays at its place (the
 * grid keeps its row drawn) until a page covers that place again (then the page says where it
 * is, or that it is gone), the list is reloaded, or the image leaves the library.
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { imagesAfterBatch, type GalleryChanges } from './gallery-batch';
import { itemKey } from './gallery-list-model';
import type { ImageRef } from './image-ref';

/** An image kept at its place in the whole gallery, as a ref (one, for the records' selectors). */
export interface KeptImageRef {
  readonly index: number;
  readonly refs: readonly [ImageRef];
}

/** The kept image as the grid shows it. */
export interface KeptImage {
  readonly index: number;
  readonly item: GalleryItem;
}

/** A page loaded by position as refs: where it starts, its images, and the image kept. */
interface JumpRefs {
  readonly offset: number;
  readonly refs: readonly ImageRef[];
  readonly kept?: KeptImageRef | null | undefined;
}

/**
 * What a new page (`next`) keeps of the one before: the image `keep` names (the grid's active
 * tile) when the page before had it and the new one neither holds it nor covers its place (a page
 * over that place without it says it moved or went: the grid gives the focus to the tile now
 * there). Null when nothing is kept.
 */
export function keptAcross(
  before: JumpRefs | null,
  next: Omit<JumpRefs, 'kept'>,
  keep: string | null,
): KeptImageRef | null {
  if (keep === null || before === null) return null;
  const at = before.refs.findIndex((ref) => itemKey(ref) === keep);
  const ref = at >= 0 ? before.refs[at] : undefined;
  const kept: KeptImageRef | null = ref
    ? { index: before.offset + at, refs: [ref] }
    : before.kept && itemKey(before.kept.refs[0]) === keep
      ? before.kept
      : null;
  if (kept === null) return null;
  const covers = kept.index >= next.offset && kept.index < next.offset + next.refs.length;
  return covers || next.refs.some((ref) => itemKey(ref) === keep) ? null : kept;
}

/** The kept image after a batch of task changes: null once it left the gallery. */
export function keptAfterChanges(
  kept: KeptImageRef,
  item: GalleryItem | undefined,
  changes: GalleryChanges,
): KeptImageRef | null {
  if (changes.removed.has(kept.refs[0].localId) || item === undefined) return null;
  return imagesAfterBatch([item], changes).items.length === 1 ? kept : null;
}
