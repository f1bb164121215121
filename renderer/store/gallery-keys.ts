/**
 * The loaded images' keys in order and each key's place, built once per list and kept across
 * changes that leave every image where it was. A rating, a flag or a tag changes one image's
 * record; the grid's places, the selection's order and its lookups stay the same objects, so a
 * keypress costs the work of the images it changed rather than a pass over every loaded one
 * (the Keypress-to-star row in docs/PERFORMANCE.md).
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { itemKey } from './gallery-list-model';

/** The keys of a list of images, in its order, and the place of each. */
export interface KeyIndex {
  readonly order: readonly string[];
  readonly placeOf: ReadonlyMap<string, number>;
}

const indexes = new WeakMap<readonly GalleryItem[], KeyIndex>();

/** The list's keys and places: built on the first call for a list, then shared. */
export function keyIndexOf(items: readonly GalleryItem[]): KeyIndex {
  const known = indexes.get(items);
  if (known) return known;
  const order = items.map(itemKey);
  const placeOf = new Map<string, number>();
  order.forEach((key, place) => placeOf.set(key, place));
  const index = { order, placeOf };
  indexes.set(items, index);
  return index;
}

/**
 * Records that `next` holds the same images as `before`, each at the same place (only what they
 * hold changed), so `next` shares `before`'s index when one was built.
 */
export function sameKeysAs(next: readonly GalleryItem[], before: readonly GalleryItem[]): void {
  const known = indexes.get(before);
  if (known && next !== before) indexes.set(next, known);
}

/** The items at `keys`, in the order given, skipping keys not in the list. */
export function itemsAt(items: readonly GalleryItem[], keys: readonly string[]): GalleryItem[] {
  const { placeOf } = keyIndexOf(items);
  const found: GalleryItem[] = [];
  for (const key of keys) {
    const item = items[placeOf.get(key) ?? -1];
    if (item) found.push(item);
  }
  return found;
}
