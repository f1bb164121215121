/**
 * Checks a downloaded image (header, pixel limit, full decode) and makes its thumbnail, both on
 * the image workers (core/images), then moves both into the task's folder under deterministic
 * names.
 */
import { THUMBS_DIR, imageNames } from './gallery-layout';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { checkImageFile } from '../images/image-ops';
import type { ImageHeader } from '../images/image-protocol';
import {
  ImagesUnavailableError,
  ImageWorkerError,
  type ImageWorkers,
} from '../images/image-workers';
import { fsyncDir, removeQuietly, writeNewFileSynced } from './atomic-file';
import { sentence } from '../../../shared/i18n/sentence';
import { diskParams, invalid, retry, type FailedOutcome } from './download-outcome';
import { IMAGE_EXTENSION, type ImageKind } from './image-sniff';

export interface CheckedImage {
  /** Displayed size (EXIF orientation applied). */
  readonly width: number;
  readonly height: number;
  /** The WebP thumbnail, small enough to hold in memory. */
  readonly thumbnail: Buffer;
}

/**
 * The image code cannot load in this process: the image is kept as downloaded (its type was
 * sniffed from its first bytes), with no thumbnail and no size; the user has been told why.
 */
export interface UncheckedImage {
  readonly thumbnail: null;
}

function headerProblem(
  header: ImageHeader | null,
  kind: ImageKind,
  maxPixels: number,
): FailedOutcome | null {
  if (!header) return invalid(sentence('error.gallery.imageUnreadable'));
  if (header.format !== kind) {
    return invalid(sentence('error.gallery.imageTypeMismatch'));
  }
  if (!header.width || !header.height) {
    return invalid(sentence('error.gallery.imageNoSize'));
  }
  if (header.width * header.height > maxPixels) {
    return invalid(
      sentence('error.gallery.imageTooManyPixels', {
        width: String(header.width),
        height: String(header.height),
        limit: maxPixels,
      }),
    );
  }
  return null;
}

/** What {@link checkImage} found: a checked image, one kept unchecked, or why it is refused. */
export type ImageCheckResult = CheckedImage | UncheckedImage | FailedOutcome;

/**
 * {@link checkImage} bound to one gallery's limits and image workers (`Gallery.checkImage`). A
 * download and an import check their files through it, so whatever checks a downloaded image
 * checks an imported one too.
 */
export type ImageCheck = (file: string, kind: ImageKind) => Promise<ImageCheckResult>;

/**
 * Reads the whole image (so a truncated or corrupt file fails here) while making the
 * thumbnail: fit inside `thumbnailSize`, never enlarged, WebP.
 */
export async function checkImage(
  file: string,
  kind: ImageKind,
  limits: { maxPixels: number; thumbnailSize: number; images?: ImageWorkers },
): Promise<ImageCheckResult> {
  let result;
  try {
    result = await checkImageFile(
      file,
      kind,
      { maxPixels: limits.maxPixels, thumbnailSize: limits.thumbnailSize },
      limits.images,
    );
  } catch (error) {
    if (error instanceof ImagesUnavailableError) return { thumbnail: null };
    if (error instanceof ImageWorkerError)
      return retry(sentence('error.gallery.downloadNotChecked', { why: error.why }));
    throw error;
  }
  const problem = headerProblem(result.header, kind, limits.maxPixels);
  if (problem) return problem;
  const { orientedWidth, orientedHeight } = result.header ?? {};
  if (!result.thumbnail || !orientedWidth || !orientedHeight) {
    return invalid(sentence('error.gallery.imageUndecodable'));
  }
  return {
    width: orientedWidth,
    height: orientedHeight,
    thumbnail: Buffer.from(
      result.thumbnail.buffer,
      result.thumbnail.byteOffset,
      result.thumbnail.byteLength,
    ),
  };
}

export interface Placement {
  /** Absolute task folder. */
  readonly folder: string;
  readonly index: number;
  readonly kind: ImageKind;
  readonly tempImage: string;
  readonly tempThumbnail: string;
  /** The image's XMP to go beside it (metadata/xmp-sidecar.ts); null: it has none beside it. */
  readonly tempXmp?: string | null;
}

/**
 * Writes the thumbnail to its temp file and renames the files into place (the XMP sidecar first,
 * so an image that needs one is never in place without it). A retry of the same index replaces
 * them; a copy of the same index with another extension, or a sidecar this image does not have,
 * is removed.
 */
export async function placeImage(
  placement: Placement,
  thumbnail: Buffer | null,
): Promise<FailedOutcome | null> {
  const { folder, index, kind } = placement;
  const names = imageNames(index, kind);
  try {
    await mkdir(join(folder, THUMBS_DIR), { recursive: true });
    if (thumbnail) await writeNewFileSynced(placement.tempThumbnail, thumbnail);
    if (placement.tempXmp) await rename(placement.tempXmp, join(folder, names.xmp));
    else await removeQuietly(join(folder, names.xmp));
    await rename(placement.tempImage, join(folder, names.image));
    if (thumbnail) await rename(placement.tempThumbnail, join(folder, names.thumbnail));
    // No thumbnail this time: one left by an earlier attempt would show another image.
    else await removeQuietly(join(folder, names.thumbnail));
    const others = (Object.keys(IMAGE_EXTENSION) as ImageKind[]).filter((other) => other !== kind);
    await Promise.all(
      others.map((other) => removeQuietly(join(folder, imageNames(index, other).image))),
    );
    await fsyncDir(folder);
    await fsyncDir(join(folder, THUMBS_DIR));
    return null;
  } catch (error) {
    return retry(sentence('error.gallery.downloadNotStored', diskParams(error)));
  }
}
