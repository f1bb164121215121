/**
 * What Pictor asks of an image decoder, behind one port so each host brings its own: the app
 * uses Chromium's codecs in a hidden sandboxed renderer, plain-Node hosts (the CLI from a
 * checkout, tests, the bench) use native sharp, and a host with neither saves images checked
 * from their headers only. The header is always read first, in TypeScript, by the core: an
 * engine never sees an image whose header was refused or whose pixel count is over the limit.
 */

/** The formats Pictor keeps. */
export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** What the core's header check read, before any decoder saw a byte. */
export interface ImageHeaderInfo {
  readonly format: ImageFormat;
  /** Stored size, as the header says. */
  readonly width: number;
  readonly height: number;
  /** EXIF orientation (1–8; 1 when absent). */
  readonly orientation: number;
  /** Displayed size, once the orientation is applied. */
  readonly orientedWidth: number;
  readonly orientedHeight: number;
}

/** One image to decode in full and thumbnail. */
export interface ThumbnailRequest {
  /** A regular file Pictor wrote (a download's temp file, an imported image, a gallery image). */
  readonly file: string;
  /**
   * The folder `file` lies in (the gallery's root), which another local process may be able to
   * write in: an engine that opens the file in the main process (the app's Chromium engine, whose
   * page is served the file from main) opens it only inside this folder, checked on what was
   * opened (core/fs/open-inside.ts), so a folder swapped for a link after the header check leads
   * nowhere. Absent only for a file the caller made for itself (the self-test, the benches).
   */
  readonly root?: string;
  readonly header: ImageHeaderInfo;
  /** The thumbnail fits inside this many pixels on each side, never enlarged. */
  readonly thumbnailSize: number;
  readonly signal?: AbortSignal;
}

/**
 * What an engine answers. The core checks every `thumbnail` answer before using it: the decoded
 * size must equal the header's oriented size, the bytes must be a RIFF/WEBP within the limit.
 */
export type ThumbnailAnswer =
  | {
      readonly kind: 'thumbnail';
      /** The decoded (oriented) size. */
      readonly width: number;
      readonly height: number;
      /** WebP bytes. */
      readonly webp: Uint8Array;
    }
  /** This engine decodes nothing: the thumbnail is made later by a host that can. */
  | { readonly kind: 'pending' }
  /** The decoder refused the bytes (truncated, corrupt, unsupported); `detail` is for the log. */
  | { readonly kind: 'undecodable'; readonly detail: string };

/** Why an engine could not do a job, for a reason of its own rather than the image's. */
export type ImageEngineFailure = 'unavailable' | 'crashed' | 'timeout' | 'stopped';

/** An engine failed a job for a reason of its own (see {@link ImageEngineFailure}). */
export class ImageEngineError extends Error {
  override readonly name = 'ImageEngineError';

  constructor(
    message: string,
    readonly why: ImageEngineFailure,
  ) {
    super(message);
  }
}

/** An image decoder and encoder. Every method may reject with {@link ImageEngineError}. */
export interface ImageEngine {
  /** Which implementation this is, for the log, `pictor self-test` and the gallery's notice. */
  readonly name: 'chromium' | 'sharp-native' | 'header-only';
  /** Decodes the whole file (so a truncated or corrupt image fails) and makes a WebP thumbnail. */
  thumbnail(request: ThumbnailRequest): Promise<ThumbnailAnswer>;
  /** The image as a PNG that fits inside `maxSide` on each side (clipboard, drag icon). */
  toPng(bytes: Uint8Array, maxSide?: number): Promise<Uint8Array>;
  /** An SVG drawn to an exact-size PNG (the demo service's pictures). */
  renderSvgPng(svg: string, size: { width: number; height: number }): Promise<Uint8Array>;
  /** Ends what the engine started (windows, workers). */
  dispose(): Promise<void>;
}
