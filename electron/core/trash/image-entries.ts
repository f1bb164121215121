/**
 * One image's steps through the trash, each safe to run again after an interruption: put aside
 * (its files held, its record `deleted`), brought back (files placed, record `saved` with where
 * they are, the held folder released last), or sent on to the system trash. The journal entry
 * is on disk before any of them starts (trash-operations.ts).
 */
import { existsSync } from 'node:fs';
import { imageFilesPatchOf } from '../../../shared/domain/image-files-patch';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { withImageFiles, withoutImageFiles } from '../gallery';
import type { GalleryTrash } from './gallery-trash';
import { resolveInside } from '../fs';
import type { ImageEntry } from './trash-journal';
import type { TrashEngine } from './trash-options';

export interface ImageEntryDeps {
  /** The engine's records: an image's files and state are written by the history worker. */
  readonly records: Pick<TrashEngine, 'get' | 'editImageFiles'>;
  readonly trash: GalleryTrash;
}

/** An image whose files went to the trash: `deleted`, no file named (withoutImageFiles). */
const DELETED = { state: 'deleted' } as const;

/** The name an image is held under in memory. */
export function imageKey({ localId, index }: { localId: string; index: number }): string {
  return `${localId}/${String(index)}`;
}

/** The image of the entry in its record now, if the task and image are still there. */
export function imageOf(
  records: Pick<TrashEngine, 'get'>,
  entry: ImageEntry,
): { record: TaskRecord; image: ImageRecord } | null {
  const record = records.get(entry.localId);
  const image = record?.images.find((candidate) => candidate.index === entry.index);
  return record && image ? { record, image } : null;
}

/**
 * Moves the image's files aside and marks it `deleted`. When the record cannot say so, the
 * files go back, as if nothing happened.
 * @throws what the move or the record threw; nothing changed then.
 */
export async function putAside(deps: ImageEntryDeps, entry: ImageEntry): Promise<TaskRecord> {
  await deps.trash.hold(entry.id, entry.files);
  try {
    const found = imageOf(deps.records, entry);
    const aside = found ? imageFilesPatchOf(withoutImageFiles(found.image)) : DELETED;
    return await deps.records.editImageFiles(entry, aside);
  } catch (error) {
    const back = await deps.trash.placeBack(entry.id, entry.files).catch(() => []);
    // Released only once the image is back: else it stays held, for the journal to finish.
    if (back.some((file) => file.role === 'image')) await deps.trash.release(entry.id);
    throw error;
  }
}

/**
 * Places the held files back and makes the record name them (`saved`), then releases the held
 * folder: the record is on disk before the last trash name of a file goes. A record that already
 * names files on disk (an interrupted delete never reached it) is left as it is.
 * @returns the record now, or null when the task left the history (the files still come back).
 * @throws when the image itself cannot come back; the entry is then still held.
 */
export async function bringBack(
  deps: ImageEntryDeps,
  entry: ImageEntry,
): Promise<TaskRecord | null> {
  const placed = await deps.trash.placeBack(entry.id, entry.files);
  const found = imageOf(deps.records, entry);
  let record = found?.record ?? null;
  if (found && placed.some((file) => file.role === 'image') && needsFiles(deps, found.image)) {
    const back: ImageRecord = { ...withImageFiles(found.image, placed), state: 'saved' };
    record = await deps.records.editImageFiles(entry, imageFilesPatchOf(back));
  }
  await deps.trash.release(entry.id);
  return record;
}

/** Deleted, or naming a file that is not there (its delete was cut short before the record). */
function needsFiles(deps: ImageEntryDeps, image: ImageRecord): boolean {
  if (image.state === 'deleted' || image.file === undefined) return true;
  try {
    return !existsSync(resolveInside(deps.trash.root, image.file));
  } catch {
    return true;
  }
}
