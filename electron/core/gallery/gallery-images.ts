/**
 * A task's images as files in the gallery: finding one, editing it, deleting it to the trash.
 * Nothing here knows about windows or IPC, so the app's handlers and the CLI share it.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { TaskEngine } from '../engine/task-engine';
import { UserFacingError } from '../errors/user-facing-error';
import { removeFile } from '../fs/contained-fs';
import type { Gallery } from './gallery';

/** An image that is not in the gallery, or whose file is not on disk: nothing to act on. */
export class GalleryImageError extends UserFacingError {
  override readonly name = 'GalleryImageError';
  constructor(message: string) {
    super(message, { code: 'not_found' });
  }
}

/** One image of one task. */
export interface ImageRef {
  readonly localId: string;
  readonly index: number;
}

/** The records an image lives in (TaskEngine). */
export type ImageRecords = Pick<TaskEngine, 'get' | 'edit'>;
/** Where the image's files are (Gallery). */
export type ImageFiles = Pick<Gallery, 'resolve' | 'root'>;

/** @throws GalleryImageError when the task or its image is not in the history. */
export function findImage(
  records: Pick<ImageRecords, 'get'>,
  { localId, index }: ImageRef,
): { record: TaskRecord; image: ImageRecord } {
  const record = records.get(localId);
  const image = record?.images[index];
  if (!record || !image) throw new GalleryImageError('That image is not in the gallery.');
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
    throw new GalleryImageError('This image is not on disk (it was not saved, or it was deleted).');
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

export interface DeleteImageDeps {
  readonly records: ImageRecords;
  readonly files: ImageFiles;
  /** Moves the user's file to the system's trash; throws when it cannot (nothing changes then). */
  readonly trash: (file: string) => Promise<void>;
}

/**
 * Deletes a saved image: its file to the trash, its thumbnail removed, its record marked
 * `deleted` (file and thumbnail forgotten). Returns the updated task record.
 * @throws GalleryImageError when the image is not there; whatever `trash` throws.
 */
export async function deleteImage(deps: DeleteImageDeps, ref: ImageRef): Promise<TaskRecord> {
  const { image } = findImage(deps.records, ref);
  await deps.trash(savedFile(deps.files, image));
  // The thumbnail is our cache, not the user's file: removed, not trashed, and never through
  // a link (a `.thumbs` folder swapped for a link to elsewhere is refused).
  // Its failure leaves a stray cache file, never a half-deleted image, so it does not fail.
  if (image.thumbnail) {
    await removeFile(deps.files.root, deps.files.resolve(image.thumbnail)).catch(() => false);
  }
  return editImage(deps.records, ref, ({ file: _file, thumbnail: _thumb, ...rest }) => ({
    ...rest,
    state: 'deleted',
  }));
}
