/**
 * Reading the records table (records-slice.ts) from a view: one task by id (a row, a cell, the
 * details), a view's id list as items, or the gallery's image refs as its images. A list's selector answers the same array while its
 * ids and their records are the same, so a record written for another view draws nothing here.
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import type { TaskItem } from '../../shared/ipc/contract';
import type { AppState } from './app-state';
import type { GalleryJump, GalleryJumpRefs } from './gallery-browse';
import { galleryItemsOf } from './gallery-list-model';
import type { ImageRef } from './image-ref';
import { recordProblem } from './record-problem';
import { sameKeysAs } from './gallery-keys';
import { changedSince, itemsOf, type RecordsTable } from './records-table';
import { unreadableImage } from './unreadable-image';

/** One task's item by local id, or null when the page holds none. */
export function selectRecord(localId: string | null): (state: AppState) => TaskItem | null {
  return (state) => (localId === null ? null : (state.records.get(localId) ?? null));
}

interface Cached {
  readonly table: RecordsTable;
  readonly items: readonly TaskItem[];
}

/** A selector of the items of an id list, cached per list (and per table within it). */
function listSelector(
  idsOf: (state: AppState) => readonly string[],
): (state: AppState) => readonly TaskItem[] {
  const cache = new WeakMap<readonly string[], Cached>();
  return (state) => {
    const ids = idsOf(state);
    const cached = cache.get(ids);
    if (cached?.table === state.records) return cached.items;
    const items = itemsOf(state.records, ids, cached?.items);
    cache.set(ids, { table: state.records, items });
    return items;
  };
}

/** The task list's loaded tasks, newest first. */
export const selectTaskItems = listSelector((state) => state.tasksIds);

/** The compare view's tasks, by slot. */
export const selectCompareItems = listSelector((state) => state.compareIds);

/** Each record's gallery items by image index, built once per record object. */
const imagesOf = new WeakMap<TaskItem, Map<number, GalleryItem>>();

/** A record's gallery items by image index; for an unreadable record, none (its refs stand in). */
function imagesByIndex(item: TaskItem): Map<number, GalleryItem> {
  let images = imagesOf.get(item);
  if (!images) {
    const readable = recordProblem(item.record) === null;
    images = new Map(
      readable ? galleryItemsOf(item.record).map((image) => [image.index, image]) : [],
    );
    imagesOf.set(item, images);
  }
  return images;
}

/**
 * One image's gallery item over the records table, or undefined when the page holds none. An
 * image of a record the page cannot read is a stand-in saying so (unreadable-image.ts): the
 * gallery shows that one tile as unreadable, never throws for the whole view.
 */
export function galleryItemAt(table: RecordsTable, ref: ImageRef): GalleryItem | undefined {
  const item = table.get(ref.localId);
  if (!item) return undefined;
  const images = imagesByIndex(item);
  const problem = recordProblem(item.record);
  if (problem === null) return images.get(ref.index);
  let standIn = images.get(ref.index);
  if (!standIn) {
    standIn = unreadableImage(ref, item.record, problem);
    images.set(ref.index, standIn);
  }
  return standIn;
}

interface CachedImages {
  readonly table: RecordsTable;
  readonly items: readonly GalleryItem[];
}

const imagesCache = new WeakMap<readonly ImageRef[], CachedImages>();

/** The places of each task's images in `refs`, built once per refs array. */
const placesCache = new WeakMap<readonly ImageRef[], Map<string, number[]>>();

function placesOf(refs: readonly ImageRef[]): Map<string, number[]> {
  const cached = placesCache.get(refs);
  if (cached) return cached;
  const places = new Map<string, number[]>();
  refs.forEach((ref, place) => {
    const known = places.get(ref.localId);
    if (known) known.push(place);
    else places.set(ref.localId, [place]);
  });
  placesCache.set(refs, places);
  return places;
}

/** The images of `refs`, in order, read from the table (an image the table lacks is skipped). */
function readImages(table: RecordsTable, refs: readonly ImageRef[]): GalleryItem[] {
  const items: GalleryItem[] = [];
  for (const ref of refs) {
    const item = galleryItemAt(table, ref);
    if (item) items.push(item);
  }
  return items;
}

/**
 * `before` (every image of `refs`, in place) with the images of the tasks in `changed` read anew;
 * null when one of them left the table (then the places move: a whole read). The answer has the
 * same keys in the same places, so it shares `before`'s key index (gallery-keys.ts).
 */
function patchImages(
  table: RecordsTable,
  refs: readonly ImageRef[],
  before: readonly GalleryItem[],
  changed: ReadonlySet<string>,
): readonly GalleryItem[] | null {
  const places = placesOf(refs);
  let next: GalleryItem[] | null = null;
  for (const localId of changed) {
    for (const place of places.get(localId) ?? []) {
      const ref = refs[place];
      const item = ref && galleryItemAt(table, ref);
      if (!item) return null;
      if (item === before[place]) continue;
      next ??= before.slice();
      next[place] = item;
    }
  }
  if (next === null) return before;
  sameKeysAs(next, before);
  return next;
}

/**
 * The images of `refs`, in order, read from the records table; the same array while the refs and
 * their records are the same. When only some records moved since the last read (records-table.ts
 * `changedSince`), only their images are read again: a star typed on one image costs that image,
 * not a pass over every loaded one, and the grid's key index carries over.
 */
function imagesOver(table: RecordsTable, refs: readonly ImageRef[]): readonly GalleryItem[] {
  const cached = imagesCache.get(refs);
  if (cached?.table === table) return cached.items;
  const changed =
    cached && cached.items.length === refs.length ? changedSince(table, cached.table) : null;
  let items = cached && changed ? patchImages(table, refs, cached.items, changed) : null;
  if (items === null) {
    const read = readImages(table, refs);
    const same =
      read.length === cached?.items.length && read.every((item, n) => item === cached.items[n]);
    items = same ? cached.items : read;
  }
  imagesCache.set(refs, { table, items });
  return items;
}

/** The gallery's loaded images, in order, from the records table. */
export function selectGalleryItems(state: AppState): readonly GalleryItem[] {
  return imagesOver(state.records, state.galleryRefs);
}

const jumpCache = new WeakMap<GalleryJumpRefs, GalleryJump>();

/** The page loaded by position with its images from the records table (null: none loaded). */
export function selectGalleryJump(state: AppState): GalleryJump | null {
  const jump = state.galleryJump;
  if (jump === null) return null;
  const items = imagesOver(state.records, jump.refs);
  const keptItem = jump.kept ? imagesOver(state.records, jump.kept.refs)[0] : undefined;
  const cached = jumpCache.get(jump);
  if (cached?.items === items && cached.kept?.item === keptItem) return cached;
  const kept = jump.kept && keptItem ? { index: jump.kept.index, item: keptItem } : null;
  const view = { offset: jump.offset, limit: jump.limit, items, kept };
  jumpCache.set(jump, view);
  return view;
}
