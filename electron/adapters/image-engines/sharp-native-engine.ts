/**
 * The `sharp-native` image engine, for plain-Node hosts only (the CLI from a checkout, tests, the
 * bench): native libvips through sharp, loaded on first use. Never in the app: on Linux its libvips
 * and Electron's GLib clash in one process, and the packed app carries no image library at all
 * (sharp is a devDependency; the main bundle leaves `import('sharp')` to run time, where it fails
 * and the host falls back to another engine).
 *
 * It runs in the calling thread: sharp does its work on libuv's thread pool, so the thread only
 * queues jobs. Measured here (2048×2048 photo-like PNGs, 2 in flight, 2 busy cores): 73 ms CPU
 * per image in the thread, 72 ms in a worker thread, the same memory growth (+50..73 MB), and
 * the worker slower end to end (messages both ways): no reason for a worker.
 *
 * At most {@link DECODES_AT_ONCE} decodes run at once. The download manager hands over as many
 * images as it downloads (16), and sharp queued every one on libuv's thread pool: four decoding
 * together, each thread's allocator arena keeping its high-water mark, and the downloads' file
 * writes waiting behind them on the same pool. Two keep both cores busy (libvips uses threads of
 * its own within an image).
 */
import type sharpModule from 'sharp';
import { THUMBNAIL_WEBP_QUALITY } from '../../../shared/domain/thumbnail-webp';
import { inTurn, limiter } from '../../core/base';
import {
  ImageEngineError,
  type ImageEngine,
  type ThumbnailAnswer,
  type ThumbnailRequest,
} from '../../ports/image-engine';

type Sharp = typeof sharpModule;

/** Decodes in flight per engine (see the module comment). */
export const DECODES_AT_ONCE = 2;

let loading: Promise<Sharp> | null = null;

/** sharp, loaded once; rejects with an `unavailable` {@link ImageEngineError} when it cannot load. */
function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(
    (module) => {
      const sharp = module.default;
      // Every input is a file or buffer used once: nothing is worth caching.
      sharp.cache(false);
      return sharp;
    },
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ImageEngineError(`sharp could not load: ${reason}`, 'unavailable');
    },
  );
  return loading;
}

/** The answer for a decode that failed: sharp's message, for the log. */
function undecodable(error: unknown): ThumbnailAnswer {
  return { kind: 'undecodable', detail: error instanceof Error ? error.message : String(error) };
}

function stoppedError(): ImageEngineError {
  return new ImageEngineError('Image work was stopped.', 'stopped');
}

function stopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw stoppedError();
}

/** A thumbnail's WebP settings: sharp's quality (1–100) and effort (libwebp's method, 0–6). */
export interface ThumbnailWebp {
  readonly quality: number;
  readonly effort: number;
}

/**
 * Every engine's quality (thumbnail-webp.ts); effort 2 of 6: a thumbnail a few bytes larger, made
 * in about half the time.
 */
const OWN_WEBP: ThumbnailWebp = { quality: THUMBNAIL_WEBP_QUALITY, effort: 2 };

async function thumbnail(request: ThumbnailRequest, webp: ThumbnailWebp): Promise<ThumbnailAnswer> {
  const sharp = await loadSharp();
  stopped(request.signal);
  const { header } = request;
  // The header check passed this many pixels; a decoder that reads more refuses the file.
  const options = { limitInputPixels: header.width * header.height, failOn: 'error' as const };
  // Oriented by the header check's reading only, so the size it expects is the size made.
  const orient = header.orientation !== 1;
  try {
    const metadata = await sharp(request.file, options).metadata();
    const width = orient ? metadata.autoOrient.width : metadata.width;
    const height = orient ? metadata.autoOrient.height : metadata.height;
    const image = sharp(request.file, options);
    const encoded = await (orient ? image.autoOrient() : image)
      .resize({
        width: request.thumbnailSize,
        height: request.thumbnailSize,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: webp.quality, effort: webp.effort })
      .toBuffer();
    stopped(request.signal);
    return { kind: 'thumbnail', width, height, webp: encoded };
  } catch (error) {
    if (error instanceof ImageEngineError) throw error;
    return undecodable(error);
  }
}

async function toPng(bytes: Uint8Array, maxSide: number | undefined): Promise<Buffer> {
  const sharp = await loadSharp();
  const image = sharp(bytes, { failOn: 'error' });
  const sized =
    maxSide === undefined
      ? image
      : image.resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
  return sized.png().toBuffer();
}

/**
 * The `sharp-native` engine (see the module comment); sharp loads on its first job. Thumbnails
 * are encoded with `webp`: the engine's own settings unless a caller (the bench) holds it to
 * another encoder's.
 */
export function createSharpNativeEngine(webp: ThumbnailWebp = OWN_WEBP): ImageEngine {
  const decodes = limiter(DECODES_AT_ONCE);
  return {
    name: 'sharp-native',
    // A request stopped while it waits its turn leaves the line at once, stopped.
    thumbnail: (request) =>
      inTurn(
        decodes,
        () => thumbnail(request, webp),
        request.signal,
        () => {
          throw stoppedError();
        },
      ),
    toPng: (bytes, maxSide) => decodes(() => toPng(bytes, maxSide)),
    async renderSvgPng(svg, size) {
      const sharp = await loadSharp();
      return sharp(Buffer.from(svg), { density: 72 })
        .resize(size.width, size.height, { fit: 'fill' })
        .png({ compressionLevel: 1 })
        .toBuffer();
    },
    dispose: () => Promise.resolve(),
  };
}

/** Whether sharp loads in this process (the host's choice between this and `header-only`). */
export async function sharpLoads(): Promise<boolean> {
  try {
    await loadSharp();
    return true;
  } catch {
    return false;
  }
}
