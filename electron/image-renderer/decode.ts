/**
 * What a decode worker does with one job: read the bytes, check the header's size against the
 * job and the page's own ceiling, decode every pixel with Chromium's codecs (a truncated or
 * corrupt file fails here), then scale and encode. Each refusal is a short fixed sentence.
 */
import {
  PAGE_MAX_PIXELS,
  PAGE_MAX_SOURCE_BYTES,
  type PageAnswer,
  type PngJob,
  type ThumbnailJob,
} from '../../shared/image-renderer/protocol';
import { storedSizeOf, type StoredSize } from './image-size';
import { SourceTooLargeError, readSource } from './read-source';

/** A refusal because of the image itself; the worker answers `undecodable`. */
export class UndecodableError extends Error {
  override readonly name = 'UndecodableError';
}

/** Bytes of every image this worker has read (see page.ts: the worker ends past a budget). */
let bytesRead = 0;

export function sourceBytesRead(): number {
  return bytesRead;
}

/** WebP quality of thumbnails: small files, no visible blocks at 384 px. */
const THUMBNAIL_QUALITY = 0.82;

/** The job's bytes and their declared size, refused when the page would not decode them. */
async function checkedSource(url: string): Promise<{ blob: Blob; size: StoredSize }> {
  let blob: Blob;
  try {
    blob = await readSource(url, PAGE_MAX_SOURCE_BYTES);
    bytesRead += blob.size;
  } catch (error) {
    if (error instanceof SourceTooLargeError) throw new UndecodableError(error.message);
    throw error;
  }
  const size = await storedSizeOf(blob);
  if (!size || size.width < 1 || size.height < 1) {
    throw new UndecodableError('The bytes have no PNG, JPEG or WebP header with a size.');
  }
  if (size.width * size.height > PAGE_MAX_PIXELS) {
    throw new UndecodableError(`The image has more than ${PAGE_MAX_PIXELS} pixels.`);
  }
  return { blob, size };
}

/** Every pixel, with the EXIF orientation applied. */
async function decodeAll(blob: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    throw new UndecodableError('The image could not be decoded.');
  }
}

/** Fits `width`×`height` inside `side`, never enlarged, at least 1 pixel each way. */
function fitInside(width: number, height: number, side: number) {
  const scale = Math.min(1, side / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** Scales `bitmap` (closing it) and encodes the result. */
async function encodeScaled(
  bitmap: ImageBitmap,
  side: number,
  type: 'image/webp' | 'image/png',
): Promise<Uint8Array> {
  const fit = fitInside(bitmap.width, bitmap.height, side);
  const scaled =
    fit.width === bitmap.width && fit.height === bitmap.height
      ? bitmap
      : await createImageBitmap(bitmap, {
          resizeWidth: fit.width,
          resizeHeight: fit.height,
          resizeQuality: 'high',
        });
  if (scaled !== bitmap) bitmap.close();
  // Drawn with a 2d context, not handed over to a 'bitmaprenderer' one: Chromium 156 encodes a
  // transferred bitmap of an EXIF-rotated image unrotated (a 300×400 image became a 400×300 WebP).
  const canvas = new OffscreenCanvas(fit.width, fit.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No canvas.');
  context.drawImage(scaled, 0, 0);
  scaled.close();
  const encoded = await canvas.convertToBlob(
    type === 'image/webp' ? { type, quality: THUMBNAIL_QUALITY } : { type },
  );
  if (encoded.type !== type) throw new Error(`The page cannot encode ${type}.`);
  return new Uint8Array(await encoded.arrayBuffer());
}

export async function thumbnail(job: ThumbnailJob): Promise<PageAnswer> {
  const { blob, size } = await checkedSource(job.url);
  if (size.width !== job.width || size.height !== job.height) {
    throw new UndecodableError('The header’s size is not the size the job was given.');
  }
  const bitmap = await decodeAll(blob);
  const { width, height } = bitmap;
  if (width !== job.orientedWidth || height !== job.orientedHeight) {
    bitmap.close();
    throw new UndecodableError('The decoded size is not the size the header declares.');
  }
  const webp = await encodeScaled(bitmap, job.thumbnailSize, 'image/webp');
  return { type: 'thumbnail', id: job.id, width, height, webp };
}

export async function png(job: PngJob): Promise<PageAnswer> {
  const { blob } = await checkedSource(job.url);
  const bitmap = await decodeAll(blob);
  const side = job.maxSide ?? Math.max(bitmap.width, bitmap.height);
  return { type: 'png', id: job.id, png: await encodeScaled(bitmap, side, 'image/png') };
}
