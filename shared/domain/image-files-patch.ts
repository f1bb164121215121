/**
 * Where an image's files are and whether it is saved, apart from the rest of its record: what
 * the trash changes when it moves an image's files aside (`deleted`, no files) or places them back
 * (`saved`, where they are now). Main works it out from the image as the gallery says
 * (core/gallery image-files.ts); the history worker applies it to the image as stored, so a
 * rating made meanwhile is never written over.
 */
import type { ImageRecord, TaskRecord } from './task-record';

export interface ImageFilesPatch {
  readonly state: ImageRecord['state'];
  readonly file?: string;
  readonly thumbnail?: string;
  readonly xmpFile?: string;
}

/** The patch that makes an image's files and state those of `image`. */
export function imageFilesPatchOf(image: ImageRecord): ImageFilesPatch {
  const { state, file, thumbnail, xmpFile } = image;
  return {
    state,
    ...(file === undefined ? {} : { file }),
    ...(thumbnail === undefined ? {} : { thumbnail }),
    ...(xmpFile === undefined ? {} : { xmpFile }),
  };
}

/** `image` with the patch's files and state, the rest of it as it is. */
function withImageFilesPatch(image: ImageRecord, patch: ImageFilesPatch): ImageRecord {
  const { file: _file, thumbnail: _thumbnail, xmpFile: _xmpFile, ...rest } = image;
  return { ...rest, ...imageFilesPatchOf({ ...rest, ...patch }) };
}

const FIELDS = ['state', 'file', 'thumbnail', 'xmpFile'] as const;

/**
 * The task with its image whose `index` is `index` patched; null when it has no such image or
 * the image already is so.
 */
export function withPatchedImage(
  record: TaskRecord,
  index: number,
  patch: ImageFilesPatch,
): TaskRecord | null {
  const image = record.images.find((candidate) => candidate.index === index);
  if (image === undefined) return null;
  const next = withImageFilesPatch(image, patch);
  if (FIELDS.every((field) => next[field] === image[field])) return null;
  return { ...record, images: record.images.map((each) => (each === image ? next : each)) };
}
