/**
 * The records an import writes, by the rebuild's rules (rebuild.ts): an image whose file came in
 * is `saved` at Pictor's own path for it; one without a file comes back `pending` when it has an
 * address and `invalid` when not; `expired`, `invalid` and `deleted` images keep their state; no
 * thumbnail is carried over (Pictor makes its own). Every record is marked `imported`.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { IMAGE_MIME, type ImageKind } from '../gallery/image-sniff';
import type { StagedImage } from './import-image';

export function withoutFile(image: ImageRecord): ImageRecord {
  const {
    file: _file,
    thumbnail: _thumbnail,
    width: _w,
    height: _h,
    bytes: _b,
    mime: _m,
    ...rest
  } = image;
  return rest;
}

/** An image of the record whose file did not come in. */
export function missingImage(image: ImageRecord): ImageRecord {
  const rest = withoutFile(image);
  if (image.state === 'expired' || image.state === 'invalid' || image.state === 'deleted')
    return rest;
  return image.url
    ? {
        ...rest,
        state: 'pending',
        error: 'The image file was not in the imported library; Pictor will download it again.',
      }
    : {
        ...rest,
        state: 'invalid',
        error:
          'The image file was not in the imported library and there is no address to download it again.',
      };
}

/** An image whose file came in, now at `file` (gallery-relative). */
export function savedImage(
  image: ImageRecord,
  kind: ImageKind,
  staged: StagedImage,
  file: string,
  index = image.index,
): ImageRecord {
  const { error: _error, ...rest } = withoutFile(image);
  return {
    ...rest,
    index,
    state: 'saved',
    mime: IMAGE_MIME[kind],
    bytes: staged.size,
    file,
    ...(staged.width && staged.height ? { width: staged.width, height: staged.height } : {}),
  };
}

export function importedRecord(
  record: TaskRecord,
  folder: string,
  images: ImageRecord[],
): TaskRecord {
  return { ...record, folder, images, imported: true };
}
