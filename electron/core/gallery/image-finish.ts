/**
 * Checks a downloaded image with sharp (header, pixel limit, full decode) and makes its
 * thumbnail, then moves both into the task's folder under deterministic names.
 */
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { fsyncDir, removeQuietly, writeNewFileSynced } from './atomic-file';
import { diskReason, invalid, retry, type FailedOutcome } from './download-outcome';
import { IMAGE_EXTENSION, type ImageKind } from './image-sniff';

export const THUMBS_DIR = '.thumbs';

/**
 * How many images are decoded at once. Each decode holds a full-size image in native memory,
 * and glibc keeps what several threads freed, so 4 (libuv's pool) cost ~50–70 MB more resident
 * memory than 2 when 100 images finish together, and were slower on 2 cores
 * (see tests/bench/suites/engine.ts).
 */
const MAX_PARALLEL_CHECKS = 2;
let runningChecks = 0;
const waitingChecks: (() => void)[] = [];

async function withCheckSlot<T>(work: () => Promise<T>): Promise<T> {
  if (runningChecks >= MAX_PARALLEL_CHECKS)
    await new Promise<void>((resolve) => waitingChecks.push(resolve));
  else runningChecks += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so the count never drops in between.
    const next = waitingChecks.shift();
    if (next) next();
    else runningChecks -= 1;
  }
}

export interface CheckedImage {
  /** Displayed size (EXIF orientation applied). */
  readonly width: number;
  readonly height: number;
  /** The WebP thumbnail, small enough to hold in memory. */
  readonly thumbnail: Buffer;
}

function pixelLimitText(maxPixels: number): string {
  return `${maxPixels.toLocaleString('en-US')} pixels`;
}

async function readHeader(file: string, kind: ImageKind, maxPixels: number) {
  let metadata: Metadata;
  try {
    // The header alone: the pixel limit is checked below so the user is told the size.
    metadata = await sharp(file, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch {
    return invalid('The image file is damaged and could not be read.');
  }
  if (metadata.format !== kind) {
    return invalid('The image file is damaged: its contents do not match its type.');
  }
  if (!metadata.width || !metadata.height) {
    return invalid('The image file does not say how big it is.');
  }
  if (metadata.width * metadata.height > maxPixels) {
    return invalid(
      `The image claims to be ${metadata.width}×${metadata.height} pixels, more than the ${pixelLimitText(maxPixels)} Pictor accepts.`,
    );
  }
  return { width: metadata.autoOrient.width, height: metadata.autoOrient.height };
}

/**
 * Reads the whole image (so a truncated or corrupt file fails here) while making the
 * thumbnail: fit inside `thumbnailSize`, never enlarged, WebP.
 */
export function checkImage(
  file: string,
  kind: ImageKind,
  limits: { maxPixels: number; thumbnailSize: number },
): Promise<CheckedImage | FailedOutcome> {
  return withCheckSlot(() => decodeAndThumbnail(file, kind, limits));
}

async function decodeAndThumbnail(
  file: string,
  kind: ImageKind,
  limits: { maxPixels: number; thumbnailSize: number },
): Promise<CheckedImage | FailedOutcome> {
  const header = await readHeader(file, kind, limits.maxPixels);
  if ('state' in header) return header;
  try {
    const thumbnail = await sharp(file, { limitInputPixels: limits.maxPixels, failOn: 'error' })
      .autoOrient()
      .resize({
        width: limits.thumbnailSize,
        height: limits.thumbnailSize,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 80 })
      .toBuffer();
    return { ...header, thumbnail };
  } catch {
    return invalid('The image is damaged or incomplete and could not be decoded.');
  }
}

export interface Placement {
  /** Absolute task folder. */
  readonly folder: string;
  readonly index: number;
  readonly kind: ImageKind;
  readonly tempImage: string;
  readonly tempThumbnail: string;
}

/** `image-<n>.<ext>` and `.thumbs/image-<n>.webp`, relative to the task folder. */
export function imageNames(index: number, kind: ImageKind): { image: string; thumbnail: string } {
  const base = `image-${index + 1}`;
  return { image: `${base}.${IMAGE_EXTENSION[kind]}`, thumbnail: `${THUMBS_DIR}/${base}.webp` };
}

/**
 * Writes the thumbnail to its temp file and renames both files into place. A retry of the
 * same index replaces them; a copy of the same index with another extension is removed.
 */
export async function placeImage(
  placement: Placement,
  thumbnail: Buffer,
): Promise<FailedOutcome | null> {
  const { folder, index, kind } = placement;
  const names = imageNames(index, kind);
  try {
    await mkdir(join(folder, THUMBS_DIR), { recursive: true });
    await writeNewFileSynced(placement.tempThumbnail, thumbnail);
    await rename(placement.tempImage, join(folder, names.image));
    await rename(placement.tempThumbnail, join(folder, names.thumbnail));
    const others = (Object.keys(IMAGE_EXTENSION) as ImageKind[]).filter((other) => other !== kind);
    await Promise.all(
      others.map((other) => removeQuietly(join(folder, imageNames(index, other).image))),
    );
    await fsyncDir(folder);
    await fsyncDir(join(folder, THUMBS_DIR));
    return null;
  } catch (error) {
    return retry(diskReason('the image could not be stored in the gallery folder', error));
  }
}
