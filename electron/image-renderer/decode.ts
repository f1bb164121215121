/**
 * What a decode worker does with one job: read the bytes (a PNG into the worker's own buffer,
 * another image as a Blob), check the header's size against the job and the page's own ceiling,
 * decode every pixel with Chromium's codecs (a truncated or corrupt file fails here), then scale
 * and encode. Each refusal is a short fixed sentence.
 */
import {
  PAGE_MAX_PIXELS,
  PAGE_MAX_SOURCE_BYTES,
  type PageAnswer,
  type PngJob,
  type ThumbnailJob,
} from '../../shared/image-renderer/protocol';
import { isPngBytes, storedSizeOf, storedSizeOfBytes, type StoredSize } from './image-size';
import { SourceTooLargeError, readSource, readSourceBytes } from './read-source';

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

/** Reads a job's bytes; a body past the page's ceiling is the image's fault (undecodable). */
async function read<T extends Blob | Uint8Array>(reading: Promise<T>): Promise<T> {
  try {
    const source = await reading;
    bytesRead += source instanceof Blob ? source.size : source.length;
    return source;
  } catch (error) {
    if (error instanceof SourceTooLargeError) throw new UndecodableError(error.message);
    throw error;
  }
}

/** The declared size, refused when the page would not decode it. */
function checkedSize(size: StoredSize | null): StoredSize {
  if (!size || size.width < 1 || size.height < 1) {
    throw new UndecodableError('The bytes have no PNG, JPEG or WebP header with a size.');
  }
  if (size.width * size.height > PAGE_MAX_PIXELS) {
    throw new UndecodableError(`The image has more than ${PAGE_MAX_PIXELS} pixels.`);
  }
  return size;
}

/** The job's bytes as a Blob and their declared size, refused when the page would not decode them. */
async function checkedSource(url: string): Promise<{ blob: Blob; size: StoredSize }> {
  const blob = await read(readSource(url, PAGE_MAX_SOURCE_BYTES));
  return { blob, size: checkedSize(await storedSizeOf(blob)) };
}

/** Every pixel, with the EXIF orientation applied. */
async function decodeAll(blob: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    throw new UndecodableError('The image could not be decoded.');
  }
}

/** A decoded image at the size its thumbnail takes, and the size it decoded to (oriented). */
interface Decoded {
  /** Scaled to fit the thumbnail's side, or whole when it is smaller. */
  readonly fitted: ImageBitmap;
  readonly width: number;
  readonly height: number;
}

/**
 * A PNG held in the worker's own buffer, decoded by WebCodecs' ImageDecoder (which takes the
 * buffer over: no copy) and scaled from its frame straight to the thumbnail's size (no bitmap of
 * every pixel beside the frame), turned as the frame says: Chromium 156 applies a PNG frame's
 * eXIf rotation as the Blob path does (own-buffer.test.ts compares them byte for byte). Its
 * decoded size must be the job's oriented one before anything is scaled.
 */
async function decodePng(bytes: Uint8Array, job: ThumbnailJob): Promise<Decoded> {
  let decoder: ImageDecoder | undefined;
  let frame: VideoFrame | undefined;
  try {
    decoder = new ImageDecoder({
      data: bytes,
      type: 'image/png',
      preferAnimation: false,
      transfer: [bytes.buffer as ArrayBuffer],
    });
    frame = (await decoder.decode({ frameIndex: 0, completeFramesOnly: true })).image;
  } catch {
    decoder?.close();
    throw new UndecodableError('The image could not be decoded.');
  }
  try {
    const width = frame.displayWidth;
    const height = frame.displayHeight;
    checkDecodedSize(job, width, height);
    const fit = fitInside(width, height, job.thumbnailSize);
    const whole = fit.width === width && fit.height === height;
    const fitted = await createImageBitmap(
      frame,
      whole
        ? {}
        : { resizeWidth: fit.width, resizeHeight: fit.height, resizeQuality: 'high' as const },
    ).catch(() => {
      throw new UndecodableError('The image could not be decoded.');
    });
    return { fitted, width, height };
  } finally {
    frame.close();
    decoder.close();
  }
}

/** A thumbnail job's image decoded: a PNG from its own buffer, another image from a Blob. */
async function decodedSource(job: ThumbnailJob): Promise<Decoded> {
  if (job.format !== 'png') {
    const { blob, size } = await checkedSource(job.url);
    checkJobSize(job, size);
    const bitmap = await decodeAll(blob);
    const { width, height } = bitmap;
    try {
      checkDecodedSize(job, width, height);
    } catch (error) {
      bitmap.close();
      throw error;
    }
    return { fitted: bitmap, width, height };
  }
  const bytes = await read(readSourceBytes(job.url, PAGE_MAX_SOURCE_BYTES));
  if (!isPngBytes(bytes)) throw new UndecodableError('The bytes are not the PNG the job named.');
  checkJobSize(job, checkedSize(storedSizeOfBytes(bytes)));
  return decodePng(bytes, job);
}

function checkDecodedSize(job: ThumbnailJob, width: number, height: number): void {
  if (width !== job.orientedWidth || height !== job.orientedHeight) {
    throw new UndecodableError('The decoded size is not the size the header declares.');
  }
}

function checkJobSize(job: ThumbnailJob, size: StoredSize): void {
  if (size.width !== job.width || size.height !== job.height) {
    throw new UndecodableError('The header’s size is not the size the job was given.');
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
  const { fitted, width, height } = await decodedSource(job);
  const webp = await encodeScaled(fitted, job.thumbnailSize, 'image/webp');
  return { type: 'thumbnail', id: job.id, width, height, webp };
}

export async function png(job: PngJob): Promise<PageAnswer> {
  const { blob } = await checkedSource(job.url);
  const bitmap = await decodeAll(blob);
  const side = job.maxSide ?? Math.max(bitmap.width, bitmap.height);
  return { type: 'png', id: job.id, png: await encodeScaled(bitmap, side, 'image/png') };
}
