/**
 * The gallery's loaded images after a batch of task changes (task-batch.ts): each task's images
 * brought up to date where they are, those deleted or of removed tasks dropped, and new ones
 * inserted where the order puts them. One pass over the loaded images and one copy at most per
 * batch; a batch whose tasks have no images and that removes none (polls of running tasks) costs
 * nothing.
 *
 * Which images the gallery holds is main's to say, never the page's: each record of a batch
 * comes with the images of it the gallery's filters hold (shared/ipc/task-changes.ts, `views`),
 * found by the query main lists the gallery with, search and smart boards included. An image
 * main names joins the list; a loaded one it no longer names (unfavourited under "favourites
 * only", rated below the rating filter) leaves it. A record main said nothing of (a change the
 * page made itself) joins only an unfiltered gallery. New images that sort after the loaded ones
 * arrive with a later page instead.
 */
import type { GalleryItem, GallerySort } from '../../shared/domain/gallery-item';
import { isVisibleImage, type TaskRecord } from '../../shared/domain/task-record';
import { recordProblem } from './record-problem';
import { compareFor, galleryItemsOf, insertionIndex, itemKey } from './gallery-list-model';
import { keyIndexOf, sameKeysAs } from './gallery-keys';

export interface TaskMerge {
  readonly items: GalleryItem[];
  /** New images placed among the loaded ones. */
  readonly added: number;
  /** Whether the batch named an image that was loaded, or placed a new one. */
  readonly changed: boolean;
  /** Every image kept its place (only what some hold changed): the same keys in the same order. */
  readonly placesKept: boolean;
}

/**
 * Where new images may go: the list's order, whether more pages follow, and whether it is
 * filtered (a record main said nothing of joins only an unfiltered list).
 */
export interface GalleryPlace {
  readonly filtered: boolean;
  readonly hasMore: boolean;
  readonly sort?: GallerySort;
}

/** The tasks of a batch as the gallery reads them. */
export interface GalleryChanges {
  /** Records of tasks that have images, by task. */
  readonly records: ReadonlyMap<string, TaskRecord>;
  readonly removed: ReadonlySet<string>;
  /** The images of each task the gallery holds, as main found them (absent: main did not say). */
  readonly held: ReadonlyMap<string, ReadonlySet<number>>;
}

/**
 * The batch's tasks that can touch the gallery (a task with no image or an unreadable record
 * cannot), with the images main says the gallery holds of each.
 */
export function galleryChanges(
  records: Iterable<TaskRecord>,
  removed: ReadonlySet<string> = new Set(),
  held: ReadonlyMap<string, readonly number[]> = new Map(),
): GalleryChanges {
  const withImages = new Map<string, TaskRecord>();
  const heldImages = new Map<string, ReadonlySet<number>>();
  for (const record of records) {
    // An unreadable record changes nothing here: its tiles read it from the records table and
    // say so (record-selectors.ts), and the batch's other tasks apply.
    if (recordProblem(record) !== null || record.images.length === 0) continue;
    withImages.set(record.localId, record);
    const indexes = held.get(record.localId);
    if (indexes) heldImages.set(record.localId, new Set(indexes));
  }
  return { records: withImages, removed, held: heldImages };
}

/** Whether the gallery holds this image of a changed task: main's word, or a visible state. */
function holds(changes: GalleryChanges, item: GalleryItem): boolean {
  if (!isVisibleImage(item.image)) return false;
  return changes.held.get(item.localId)?.has(item.index) ?? true;
}

/** A task's images as the gallery shows them, by index (undefined: the batch has no record of it). */
type FreshImages = (localId: string) => Map<number, GalleryItem> | undefined;

/** Each task's images as the gallery shows them, built once per task. */
function freshImages(changes: GalleryChanges): FreshImages {
  const built = new Map<string, Map<number, GalleryItem>>();
  return (localId: string): Map<number, GalleryItem> | undefined => {
    const record = changes.records.get(localId);
    if (!record) return undefined;
    let images = built.get(localId);
    if (!images) {
      images = new Map(galleryItemsOf(record).map((item) => [item.index, item]));
      built.set(localId, images);
    }
    return images;
  };
}

/** The loaded images after the batch's updates and drops (null: unchanged). */
interface Updated {
  readonly items: GalleryItem[] | null;
  /** Which images of each task the list held. */
  readonly seen: Map<string, Set<number>>;
  /** Whether an image left the list. */
  readonly dropped: boolean;
}

/** The loaded images with the batch's updates and drops, and which images of each task were seen. */
function updatedInPlace(
  items: readonly GalleryItem[],
  changes: GalleryChanges,
  fresh: FreshImages,
): Updated {
  const seen = new Map<string, Set<number>>();
  let next: GalleryItem[] | null = null;
  let dropped = false;
  items.forEach((item, position) => {
    const removed = changes.removed.has(item.localId);
    const images = removed ? undefined : fresh(item.localId);
    if (!removed && !images) {
      next?.push(item);
      return;
    }
    next ??= items.slice(0, position);
    const indexes = seen.get(item.localId) ?? new Set<number>();
    seen.set(item.localId, indexes.add(item.index));
    const update = images?.get(item.index);
    if (update && holds(changes, update)) next.push(update);
    else dropped = true;
  });
  return { items: next, seen, dropped };
}

/**
 * The same as {@link updatedInPlace} for the common batch, found through the list's key index
 * instead of a pass over every loaded image: each changed image is looked up by its key, so a
 * rating costs its own images. A record lists every image its task has had (a deleted one keeps
 * its place with the deleted state), so its keys name every loaded image of the task. Null when
 * the batch removes tasks or takes an image out: the pass handles those.
 */
function updatedByPlace(
  items: readonly GalleryItem[],
  changes: GalleryChanges,
  fresh: FreshImages,
): Updated | null {
  if (changes.removed.size > 0) return null;
  const { placeOf } = keyIndexOf(items);
  const seen = new Map<string, Set<number>>();
  let next: GalleryItem[] | null = null;
  for (const localId of changes.records.keys()) {
    for (const update of fresh(localId)?.values() ?? []) {
      const position = placeOf.get(itemKey(update));
      if (position === undefined) continue;
      if (!holds(changes, update)) return null;
      const copy: GalleryItem[] = next ?? items.slice();
      copy[position] = update;
      next = copy;
      seen.set(localId, (seen.get(localId) ?? new Set<number>()).add(update.index));
    }
  }
  return { items: next, seen, dropped: false };
}

/** Whether a new image joins the list: main names it, or (unsaid) the list is unfiltered. */
function joins(changes: GalleryChanges, item: GalleryItem, place: GalleryPlace): boolean {
  if (!isVisibleImage(item.image)) return false;
  const held = changes.held.get(item.localId);
  return held ? held.has(item.index) : !place.filtered;
}

/** Inserts the tasks' images not loaded yet where the order puts them; how many went in. */
function insertNew(
  next: GalleryItem[],
  changes: GalleryChanges,
  {
    fresh,
    seen,
    place,
  }: { fresh: FreshImages; seen: Map<string, Set<number>>; place: GalleryPlace },
): number {
  const compare = compareFor(place.sort ?? 'newest');
  let added = 0;
  const candidates = [...changes.records.keys()].flatMap((localId) =>
    [...(fresh(localId)?.values() ?? [])].filter(
      (item) => !seen.get(localId)?.has(item.index) && joins(changes, item, place),
    ),
  );
  for (const item of candidates) {
    const at = insertionIndex(next, item, compare);
    if (at === next.length && place.hasMore) continue;
    next.splice(at, 0, item);
    added += 1;
  }
  return added;
}

/**
 * Applies a batch's task changes to loaded images; with `place`, new images are inserted (the
 * list), without, none are (a page loaded by position).
 */
export function imagesAfterBatch(
  items: readonly GalleryItem[],
  changes: GalleryChanges,
  place?: GalleryPlace,
): TaskMerge {
  if (changes.records.size === 0 && changes.removed.size === 0) {
    return { items: items as GalleryItem[], added: 0, changed: false, placesKept: true };
  }
  const fresh = freshImages(changes);
  const updated = updatedByPlace(items, changes, fresh) ?? updatedInPlace(items, changes, fresh);
  const next = updated.items ?? [...items];
  const added = place ? insertNew(next, changes, { fresh, seen: updated.seen, place }) : 0;
  const changed = updated.items !== null || added > 0;
  // Every image where it was, only what some hold changed: the list's key index carries over.
  const placesKept = !updated.dropped && added === 0;
  if (updated.items !== null && placesKept) sameKeysAs(next, items);
  return { items: changed ? next : (items as GalleryItem[]), added, changed, placesKept };
}
