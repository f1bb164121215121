/**
 * Messages between the main process and the image worker (image-worker.ts). Types only: the
 * worker runs from its own bundle, and from source under Node's type stripping.
 */

/** The image's header as sharp reads it, before any pixel is decoded. */
export interface ImageHeader {
  /** sharp's name for the format: 'png', 'jpeg', 'webp', … */
  readonly format: string | undefined;
  readonly width: number | undefined;
  readonly height: number | undefined;
  /** Size once EXIF orientation is applied (what the user sees). */
  readonly orientedWidth: number | undefined;
  readonly orientedHeight: number | undefined;
}

/** The result of a full check: the header (null: unreadable), then the thumbnail or why not. */
export interface CheckResult {
  readonly header: ImageHeader | null;
  /** WebP bytes; absent when the header was refused or the decode failed. */
  readonly thumbnail?: Uint8Array;
  readonly decodeFailed?: boolean;
}

export type ImageRequest =
  | {
      readonly op: 'check';
      /** A file Pictor wrote itself (a download's temp file). */
      readonly file: string;
      /** The format the bytes were sniffed as; the header must agree before decoding. */
      readonly kind: string;
      readonly maxPixels: number;
      readonly thumbnailSize: number;
    }
  | { readonly op: 'header'; readonly bytes: Uint8Array }
  | { readonly op: 'png'; readonly bytes: Uint8Array }
  | { readonly op: 'icon'; readonly bytes: Uint8Array; readonly size: number }
  | { readonly op: 'svg'; readonly svg: string; readonly width: number; readonly height: number };

export type WorkerMessage =
  | { readonly type: 'ready'; readonly library: string }
  | { readonly type: 'failed'; readonly reason: string }
  | { readonly type: 'done'; readonly id: number; readonly value: unknown }
  | { readonly type: 'error'; readonly id: number; readonly message: string };
