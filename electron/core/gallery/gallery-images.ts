/**
 * A task's images as files in the gallery: finding one and editing its record. Deleting one to
 * the trash and bringing it back is core/trash's (trash-operations.ts).
 * Nothing here knows about windows or IPC, so the app's handlers and the CLI share it.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import type { Gallery } from './gallery';

/** An image that is not in the gallery, or whose file is not on disk: nothing to act on. */
export class GalleryImageError extends UserFacingError {
  override readonly name = 'GalleryImageError';
  constructor(message: Sentence) {
    super(message, { code: 'not_found' });
  }
}

/** One image of one task. */
export interface ImageRef {
  readonly localId: string;
  readonly index: number;
}

/** The images named, by task: each task's image indexes, tasks in the order first named. */
/** Each image once, in the order first named. */
export function distinctImages(refs: readonly ImageRef[]): ImageRef[] {
  return [...new Map(refs.map((ref) => [`${ref.localId}/${String(ref.index)}`, ref])).values()];
}

export function imagesByTask(images: readonly ImageRef[]): Map<string, Set<number>> {
  const byTask = new Map<string, Set<number>>();
  for (const { localId, index } of images) {
    byTask.set(localId, (byTask.get(localId) ?? new Set()).add(index));
  }
  return byTask;
}

/**
 * The records an image lives in: the engine's (it writes a record and its sidecar together), a
 * port so the gallery does not reach up into the engine.
 */
export interface ImageRecords {
  get(localId: string): TaskRecord | undefined;
  /** Replaces the record by `change`'s result and writes it. @throws when the task is unknown. */
  edit(localId: string, change: (record: TaskRecord) => TaskRecord): TaskRecord;
}
/** Where the image's files are (Gallery). */
export type ImageFiles = Pick<Gallery, 'resolve' | 'root'>;

/** @throws GalleryImageError when the task or its image is not in the history. */
export function findImage(
  records: Pick<ImageRecords, 'get'>,
  { localId, index }: ImageRef,
): { record: TaskRecord; image: ImageRecord } {
  const record = records.get(localId);
  const image = record?.images[index];
  if (!record || !image) throw new GalleryImageError(sentence('error.gallery.imageNotInGallery'));
  return { record, image };
}

/**
 * The absolute path of a saved image's file (or its thumbnail), checked to lie inside the gallery.
 * @throws GalleryImageError when the image is not saved, or has no such file.
 */
export function savedFile(
  files: Pick<ImageFiles, 'resolve'>,
  image: ImageRecord,
  which: 'file' | 'thumbnail' = 'file',
): string {
  const relative = image[which];
  if (image.state !== 'saved' || !relative) {
    throw new GalleryImageError(sentence('error.gallery.imageNotOnDisk'));
  }
  return files.resolve(relative);
}

/** Replaces one image of a task's record (the engine writes the record and its sidecar). */
export function editImage(
  records: Pick<ImageRecords, 'edit'>,
  { localId, index }: ImageRef,
  change: (image: ImageRecord) => ImageRecord,
): TaskRecord {
  return records.edit(localId, (record) => ({
    ...record,
    images: record.images.map((image) => (image.index === index ? change(image) : image)),
  }));
}
