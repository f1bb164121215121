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
import { itemsOf, type RecordsTable } from './records-table';
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

/**
 * The images of `refs`, in order, read from the records table (an image the table lacks is
 * skipped); the same array while the refs and their records are the same.
 */
function imagesOver(table: RecordsTable, refs: readonly ImageRef[]): readonly GalleryItem[] {
  const cached = imagesCache.get(refs);
  if (cached?.table === table) return cached.items;
  const items: GalleryItem[] = [];
  let same = cached !== undefined;
  for (const ref of refs) {
    const item = galleryItemAt(table, ref);
    if (!item) continue;
    if (cached?.items[items.length] !== item) same = false;
    items.push(item);
  }
  const kept = same && items.length === cached?.items.length ? cached.items : items;
  imagesCache.set(refs, { table, items: kept });
  return kept;
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
  const cached = jumpCache.get(jump);
  if (cached?.items === items) return cached;
  const view = { offset: jump.offset, limit: jump.limit, items };
  jumpCache.set(jump, view);
  return view;
}
