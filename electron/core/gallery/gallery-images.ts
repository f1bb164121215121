/**
 * A task's images as files in the gallery: finding one, editing it, deleting it to the trash and
 * bringing it back.
 * Nothing here knows about windows or IPC, so the app's handlers and the CLI share it.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { TaskEngine } from '../engine/task-engine';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors/user-facing-error';
import type { Gallery } from './gallery';
import type { GalleryTrash } from './gallery-trash';

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

export interface DeleteImageDeps {
  readonly records: ImageRecords;
  readonly files: ImageFiles;
  /** Where deleted images wait for Undo (core/gallery/gallery-trash.ts). */
  readonly trash: Pick<GalleryTrash, 'put' | 'restore' | 'has'>;
}

/** The name an image is held under in the trash. */
export function trashKey({ localId, index }: ImageRef): string {
  return `${localId}/${String(index)}`;
}

/**
 * Deletes a saved image: its file, thumbnail and XMP sidecar move to the gallery's trash, where
 * {@link restoreImage} finds them for a while, and its record is marked `deleted` (file and
 * thumbnail forgotten). Returns the updated task record.
 * @throws GalleryImageError when the image is not there; UnsafePathError (a link on the way) or
 * a file-system error, with nothing changed.
 */
export async function deleteImage(deps: DeleteImageDeps, ref: ImageRef): Promise<TaskRecord> {
  const { image } = findImage(deps.records, ref);
  const file = image.file;
  savedFile(deps.files, image);
  if (file === undefined)
    throw new GalleryImageError(sentence('error.gallery.imageNotOnDiskShort'));
  const key = trashKey(ref);
  await deps.trash.put(key, {
    file,
    ...(image.thumbnail === undefined ? {} : { thumbnail: image.thumbnail }),
    ...(image.xmpFile === undefined ? {} : { xmp: image.xmpFile }),
  });
  try {
    return editImage(deps.records, ref, ({ file: _f, thumbnail: _t, xmpFile: _x, ...rest }) => ({
      ...rest,
      state: 'deleted',
    }));
  } catch (error) {
    // The record could not say so: the file goes back, as if nothing happened.
    await deps.trash.restore(key).catch(() => undefined);
    throw error;
  }
}

/**
 * Undoes {@link deleteImage}: the files come back from the trash (under their old names, or new
 * ones when something took those meanwhile; never over anything) and the record says `saved`.
 * @throws GalleryImageError when the image is no longer held (it went on to the system trash,
 * the gallery moved) or its record changed meanwhile; UnsafePathError when a folder on the way
 * back is a link.
 */
export async function restoreImage(deps: DeleteImageDeps, ref: ImageRef): Promise<TaskRecord> {
  const key = trashKey(ref);
  if (!deps.trash.has(key)) {
    throw new GalleryImageError(sentence('error.gallery.imageInSystemTrash'));
  }
  const { image } = findImage(deps.records, ref);
  if (image.state !== 'deleted') {
    throw new GalleryImageError(sentence('error.gallery.imageChangedSinceDelete'));
  }
  const back = await deps.trash.restore(key);
  return editImage(deps.records, ref, (current) => ({
    ...current,
    state: 'saved',
    file: back.file,
    ...(back.thumbnail === undefined ? {} : { thumbnail: back.thumbnail }),
    ...(back.xmp === undefined ? {} : { xmpFile: back.xmp }),
  }));
}
