/**
 * What a decode worker does with one job: read the bytes into the worker's own buffer (never a
 * Blob, which the browser process would hold), check the header's size against the job and the
 * page's own ceiling, decode with Chromium's codecs through WebCodecs' ImageDecoder (a truncated or
 * corrupt file fails here; a large JPEG decodes reduced), then scale; a PNG job's image is encoded
 * here, a thumbnail by the page (encode-thumbnail.ts). Each refusal is a short fixed sentence.
 */
import {
  PAGE_MAX_PIXELS,
  PAGE_MAX_SOURCE_BYTES,
  type PageAnswer,
  type PngJob,
  type ThumbnailJob,
} from '../../shared/image-renderer/protocol';
import { IMAGE_MIME, sniffImage, type ImageKind } from '../../shared/domain/image-kind';
import { storedSizeOfBytes, type StoredSize } from './image-size';
import { drawnOn } from './draw-bitmap';
import { desiredFor, eighthsFor, isReductionOf } from './jpeg-scale';
import { SourceTooLargeError, readSourceBytes } from './read-source';

/** A refusal because of the image itself; the worker answers `undecodable`. */
export class UndecodableError extends Error {
  override readonly name = 'UndecodableError';
}

/**
 * What this worker has made Chromium hold until the worker ends (see page.ts: it ends past a
 * budget), measured in Chromium 150 by the renderer's growth over jobs in one worker: every new
 * canvas an image was drawn on ({@link canvasOf}) and every encoded Blob (a PNG job's), and four
 * bytes per pixel of every YUV frame Chromium drew itself (a turned one: see {@link rgbaOf}). Not
 * an image's bytes: every decoder is handed its buffer, released when it closes (60 8 MB PNGs grew
 * the renderer 0.8 MB each; a decoder given a copy held it: 2.6 MB per 2.5 MB JPEG).
 */
let heldBytes = 0;

export function workerHeldBytes(): number {
  return heldBytes;
}

/** The RGB formats a frame may come in; any other is YUV, converted when it is drawn. */
const RGB_FORMATS = new Set(['RGBA', 'RGBX', 'BGRA', 'BGRX']);

/** The largest RGBA buffer a worker keeps for its next YUV frame (a 4096² image's). */
const KEPT_RGBA_BYTES = 64 * 1024 * 1024;
let keptRgba: ArrayBuffer | null = null;

/** A frame's turn and mirror (WebCodecs' VideoFrame rotation and flip; absent, none). */
function orientationOf(frame: VideoFrame): { rotation: number; flip: boolean } {
  const { rotation, flip } = frame as VideoFrame & { rotation?: number; flip?: boolean };
  return { rotation: rotation ?? 0, flip: flip ?? false };
}

/** Whether the frame is neither turned nor mirrored. */
function upright(frame: VideoFrame): boolean {
  const { rotation, flip } = orientationOf(frame);
  return rotation === 0 && !flip;
}

/**
 * A YUV frame (a JPEG decoded whole, a lossy WebP without an extended header) as RGBA pixels,
 * converted by WebCodecs' copyTo into a buffer the worker keeps for the next one; null when the
 * frame is turned or mirrored, or this Chromium cannot convert it so. Drawn by Chromium itself,
 * such a frame's conversion is memory Chromium 156 keeps in the worker until it ends, and fresh
 * every time: 40 WebPs of 2048² grew the page's renderer by about 570 MB at 10,000 page faults
 * each, against 125 MB and 2,200 this way.
 */
async function rgbaOf(frame: VideoFrame): Promise<ImageData | null> {
  if (!upright(frame) || RGB_FORMATS.has(frame.format ?? '')) return null;
  const { codedWidth: width, codedHeight: height } = frame;
  const size = 4 * width * height;
  const options = { format: 'RGBA' } as VideoFrameCopyToOptions;
  // A Chromium that ignores the format would copy the YUV planes, a smaller allocation.
  if (frame.allocationSize(options) !== size) return null;
  const buffer = keptRgba && keptRgba.byteLength >= size ? keptRgba : new ArrayBuffer(size);
  if (size <= KEPT_RGBA_BYTES) keptRgba = buffer;
  const pixels = new Uint8ClampedArray(buffer, 0, size);
  await frame.copyTo(pixels, options);
  return new ImageData(pixels, width, height);
}

/** Reads a job's bytes; a body past the page's ceiling is the image's fault (undecodable). */
async function read(reading: Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return await reading;
  } catch (error) {
    if (error instanceof SourceTooLargeError) throw new UndecodableError(error.message);
    throw error;
  }
}

const FORMAT_NAMES: Record<ImageKind, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP' };

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

/** A job's bytes, read into the worker's own buffer. */
interface Source {
  readonly bytes: Uint8Array;
  readonly format: ImageKind;
  /** The stored size its header declares, within the page's ceiling. */
  readonly size: StoredSize;
}

/**
 * The job's bytes in a buffer of the worker's own (nothing outside the page holds them), refused
 * when they are not the format the job named or declare no size the page decodes.
 */
async function checkedSource(url: string, named?: ImageKind): Promise<Source> {
  const bytes = await read(readSourceBytes(url, PAGE_MAX_SOURCE_BYTES));
  const format = sniffImage(bytes);
  if (format === null) {
    throw new UndecodableError('The bytes have no PNG, JPEG or WebP header with a size.');
  }
  if (named !== undefined && format !== named) {
    throw new UndecodableError(`The bytes are not the ${FORMAT_NAMES[named]} the job named.`);
  }
  return { bytes, format, size: checkedSize(storedSizeOfBytes(bytes, format)) };
}

/** An ImageDecoder and the first frame it decoded; both are closed together. */
interface Frame {
  readonly decoder: ImageDecoder;
  readonly frame: VideoFrame;
}

function closeFrame({ decoder, frame }: Frame): void {
  frame.close();
  decoder.close();
}

/**
 * The first frame of `source`, decoded by WebCodecs' ImageDecoder (never a Blob: in Electron the
 * browser process that would hold one is the main process). The decoder takes the buffer over: no
 * copy, and it is released when the decoder closes (a copy was held until the worker's heap was
 * collected: 40 JPEGs of 0.5 MB decoded reduced grew the renderer 33 MB given copies, 13 MB handed
 * over). It decodes every pixel, or with `desired` a JPEG at the largest of libjpeg's M/8 scales
 * whose pixels fit the area asked for.
 */
async function decodeFrame(source: Source, desired?: StoredSize): Promise<Frame> {
  let decoder: ImageDecoder | undefined;
  try {
    decoder = new ImageDecoder({
      data: source.bytes,
      type: IMAGE_MIME[source.format],
      preferAnimation: false,
      transfer: [source.bytes.buffer as ArrayBuffer],
      ...(desired ? { desiredWidth: desired.width, desiredHeight: desired.height } : {}),
    });
    const { image } = await decoder.decode({ frameIndex: 0, completeFramesOnly: true });
    return { decoder, frame: image };
  } catch {
    decoder?.close();
    throw new UndecodableError('The image could not be decoded.');
  }
}

/**
 * `frame` scaled to `fit` (its display size: oriented as the frame says): an upright YUV frame
 * from its RGBA pixels ({@link rgbaOf}), any other drawn by Chromium. The size is always given
 * when the frame is turned or mirrored: Chromium 156 draws a turned YUV frame (a JPEG's) unscaled
 * at its coded size, squeezing the picture; asked for a size, it turns and scales it right.
 */
async function scaledTo(frame: VideoFrame, fit: StoredSize): Promise<ImageBitmap> {
  const whole = fit.width === frame.displayWidth && fit.height === frame.displayHeight;
  try {
    const rgba = await rgbaOf(frame);
    if (rgba) {
      return await createImageBitmap(rgba, {
        resizeWidth: fit.width,
        resizeHeight: fit.height,
        resizeQuality: 'high',
      });
    }
    if (!RGB_FORMATS.has(frame.format ?? '')) heldBytes += 4 * frame.codedWidth * frame.codedHeight;
    return await createImageBitmap(
      frame,
      whole && upright(frame)
        ? {}
        : { resizeWidth: fit.width, resizeHeight: fit.height, resizeQuality: 'high' },
    );
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
 * A JPEG decoded reduced to `eighths`/8 of its size (libjpeg's DCT scaling, as sharp does:
 * jpeg-scale.ts), then scaled as a whole one is. The decoder may also decode it whole. It is
 * handed the bytes, so there is no second decode: the area asked for holds `eighths`/8 of the
 * image, so the frame covers the thumbnail; one a Chromium scaled smaller would be drawn up to the
 * thumbnail's size, which the fidelity tests against sharp's Lanczos-3 would show.
 */
async function reducedJpeg(
  source: Source,
  job: ThumbnailJob,
  fit: StoredSize,
  eighths: number,
): Promise<ImageBitmap> {
  const stored = { width: job.width, height: job.height };
  const reduced = await decodeFrame(source, desiredFor(stored, eighths));
  try {
    const { frame } = reduced;
    const coded = { width: frame.codedWidth, height: frame.codedHeight };
    const display = { width: frame.displayWidth, height: frame.displayHeight };
    if (coded.width === job.width && coded.height === job.height) {
      checkDecodedSize(job, display.width, display.height);
    } else if (!isReductionOf(coded, display, stored, job.orientedWidth !== job.width)) {
      throw new UndecodableError('The decoded size is not the size the header declares.');
    }
    return await scaledTo(frame, fit);
  } finally {
    closeFrame(reduced);
  }
}

/**
 * A thumbnail job's image decoded from the worker's own buffer and scaled to its thumbnail; a
 * JPEG larger than its thumbnail is decoded reduced, to the smallest of libjpeg's sizes that
 * covers the thumbnail.
 */
async function decodedSource(job: ThumbnailJob): Promise<Decoded> {
  const source = await checkedSource(job.url, job.format);
  checkJobSize(job, source.size);
  const width = job.orientedWidth;
  const height = job.orientedHeight;
  const fit = fitInside(width, height, job.thumbnailSize);
  const eighths = eighthsFor({ width: job.width, height: job.height }, fit);
  if (job.format === 'jpeg' && eighths < 8) {
    return { fitted: await reducedJpeg(source, job, fit, eighths), width, height };
  }
  const full = await decodeFrame(source);
  try {
    checkDecodedSize(job, full.frame.displayWidth, full.frame.displayHeight);
    return { fitted: await scaledTo(full.frame, fit), width, height };
  } finally {
    closeFrame(full);
  }
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

/** A canvas and its 2d context. */
interface Canvas {
  readonly canvas: OffscreenCanvas;
  readonly context: OffscreenCanvasRenderingContext2D;
}

/** The largest canvas a worker keeps for its next PNG job: a small one's, never a whole image's. */
const KEPT_CANVAS_PIXELS = 1024 * 1024;
let keptCanvas: Canvas | null = null;

/**
 * A cleared canvas of `width`×`height`: the one kept from the last image of that size (images of
 * one task or batch mostly are), else a new one. A new canvas's pixels stay until the worker's
 * heap is collected, even once a kept one is given another size (Chromium 150: 60 thumbnails
 * alternating 384×256 and 256×384 on one canvas grew the renderer 0.65 MB each, of one size on
 * one canvas by nothing), so each new one counts as held.
 */
function canvasOf(width: number, height: number): Canvas {
  const kept = keptCanvas;
  if (kept && kept.canvas.width === width && kept.canvas.height === height) {
    kept.context.clearRect(0, 0, width, height);
    return kept;
  }
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No canvas.');
  heldBytes += 4 * width * height;
  const made = { canvas, context };
  if (width * height <= KEPT_CANVAS_PIXELS) keptCanvas = made;
  return made;
}

/** Draws `bitmap` (closing it) and encodes it as a PNG (a `png` job's; a thumbnail's: the page). */
async function encodePng(bitmap: ImageBitmap): Promise<Uint8Array> {
  const encoded = await drawnOn(bitmap, canvasOf).convertToBlob({ type: 'image/png' });
  // The Blob stays until the worker's heap is collected, held by the browser process (in
  // Electron, the main process).
  heldBytes += encoded.size;
  if (encoded.type !== 'image/png') throw new Error('The page cannot encode image/png.');
  return new Uint8Array(await encoded.arrayBuffer());
}

/**
 * A thumbnail job's image decoded and scaled, for the page to encode (encode-thumbnail.ts): an
 * encoder in this worker (OffscreenCanvas.convertToBlob) makes a Blob, which the browser process
 * (in Electron, the main process) takes a copy of and copies back when its bytes are read.
 */
export interface ThumbnailBitmap {
  readonly id: number;
  /** Fitted inside the thumbnail's side; transferred to the page, which closes it. */
  readonly fitted: ImageBitmap;
  /** The decoded size (oriented). */
  readonly width: number;
  readonly height: number;
}

export async function thumbnailBitmap(job: ThumbnailJob): Promise<ThumbnailBitmap> {
  const { fitted, width, height } = await decodedSource(job);
  return { id: job.id, fitted, width, height };
}

export async function png(job: PngJob): Promise<PageAnswer> {
  // The header's size is within the page's ceiling (checkedSource); the decoder reads the same
  // header and refuses pixels that do not match it (own-buffer.test.ts).
  const decoded = await decodeFrame(await checkedSource(job.url));
  try {
    const { frame } = decoded;
    const side = job.maxSide ?? Math.max(frame.displayWidth, frame.displayHeight);
    const bitmap = await scaledTo(frame, fitInside(frame.displayWidth, frame.displayHeight, side));
    return { type: 'png', id: job.id, png: await encodePng(bitmap) };
  } finally {
    closeFrame(decoded);
  }
}
