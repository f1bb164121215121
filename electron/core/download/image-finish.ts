/**
 * Checks a downloaded image through the one image check (core/images/image-check.ts: header,
 * pixel limit, the engine's full decode and thumbnail, its answer checked), then moves the image
 * and its thumbnail into the task's folder under deterministic names.
 */
import { THUMBS_DIR, imageNames } from '../gallery';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentCredentials } from '../../../shared/domain/content-credentials';
import type { ImageEngine } from '../../ports/image-engine';
import type { Logger } from '../../ports/logger';
import { checkImageFile, type HeaderRefusal, IMAGE_EXTENSION, type ImageKind } from '../images';
import {
  diskParams,
  fsyncDir,
  PRIVATE_FOLDER_MODE,
  removeQuietly,
  writeNewFileSynced,
} from '../fs';
import { sizeParam } from '../../../shared/i18n/dimensions';
import { sentence } from '../../../shared/i18n/sentence';
import { invalid, retry, type FailedOutcome } from './download-outcome';

export interface CheckedImage {
  /** Displayed size (EXIF orientation applied), from the decoder, or the header when pending. */
  readonly width: number;
  readonly height: number;
  /**
   * The WebP thumbnail, small enough to hold in memory; `null` when no engine here decodes: the
   * image is sized from its header and its thumbnail is made later (it is marked pending).
   */
  readonly thumbnail: Buffer | null;
  /** Pictor's verdict on the file's Content Credentials, when the check looked (an import's). */
  readonly contentCredentials?: ContentCredentials;
}

export interface ImageCheckLimits {
  /** The gallery's root: the file is opened only inside it (core/fs/open-inside.ts). */
  readonly root: string;
  readonly maxPixels: number;
  readonly thumbnailSize: number;
  /** The file is not opened when it is larger (the download's cap). */
  readonly maxImageBytes: number;
  readonly imageEngine: ImageEngine;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

function headerProblem(refusal: HeaderRefusal, maxPixels: number): FailedOutcome {
  switch (refusal.reason) {
    case 'unreadable':
      return invalid(sentence('error.gallery.imageUnreadable'));
    case 'type_mismatch':
      return invalid(sentence('error.gallery.imageTypeMismatch'));
    case 'no_size':
      return invalid(sentence('error.gallery.imageNoSize'));
    case 'too_many_pixels':
      return invalid(
        sentence('error.gallery.imageTooManyPixels', {
          size: sizeParam(refusal.width, refusal.height),
          limit: maxPixels,
        }),
      );
  }
}

/**
/** What {@link checkImage} found: a checked image (its thumbnail possibly pending), or why not. */
export type ImageCheckResult = CheckedImage | FailedOutcome;

/**
 * {@link checkImage} bound to one gallery's limits and image engine (`Gallery.checkImage`). A
 * download and an import check their files through it, so whatever checks a downloaded image
 * checks an imported one too.
 */
export type ImageCheck = (file: string, kind: ImageKind) => Promise<ImageCheckResult>;

/**
 * Checks `file` as a `kind` image and makes its thumbnail (fit inside `thumbnailSize`, never
 * enlarged, WebP): the header first, then the whole image is decoded, so a truncated or corrupt
 * file fails here. A refusal is an outcome with its sentence; an engine that failed for a reason
 * of its own is a retry.
 */
export async function checkImage(
  file: string,
  kind: ImageKind,
  limits: ImageCheckLimits,
): Promise<ImageCheckResult> {
  const checked = await checkImageFile(file, kind, {
    root: limits.root,
    engine: limits.imageEngine,
    maxPixels: limits.maxPixels,
    maxBytes: limits.maxImageBytes,
    thumbnailSize: limits.thumbnailSize,
    ...(limits.signal ? { signal: limits.signal } : {}),
  });
  switch (checked.kind) {
    case 'refused':
      limits.logger?.debug('Image header refused.', { detail: checked.refusal.detail });
      return headerProblem(checked.refusal, limits.maxPixels);
    case 'undecodable':
      limits.logger?.debug('Image not decoded.', { detail: checked.detail });
      return invalid(sentence('error.gallery.imageUndecodable'));
    case 'engine_failed':
      return retry(sentence('error.gallery.downloadNotChecked', { why: checked.why }));
    case 'pending':
      return {
        width: checked.header.orientedWidth,
        height: checked.header.orientedHeight,
        thumbnail: null,
      };
    case 'thumbnail':
      return {
        width: checked.width,
        height: checked.height,
        thumbnail: Buffer.from(
          checked.webp.buffer,
          checked.webp.byteOffset,
          checked.webp.byteLength,
        ),
      };
  }
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
    await mkdir(join(folder, THUMBS_DIR), { recursive: true, mode: PRIVATE_FOLDER_MODE });
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
