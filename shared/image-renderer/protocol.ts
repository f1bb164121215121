/**
 * The messages between the main process and the image renderer's page
 * (electron/image-renderer), over the one MessagePort the page is given. The main process checks
 * every answer against its own schema (electron/core/images/renderer-answers.ts) before using it;
 * the page trusts nothing a job says beyond what it checks itself. Types and constants only:
 * the page's bundle imports nothing else from here.
 */
import type { C2paMime } from '../content-credentials/c2pa-read';
import type { CredentialVerdict } from '../domain/content-credentials';
import { THUMBNAIL_WEBP_QUALITY } from '../domain/thumbnail-webp';

/** The IPC channel on which the main process sends the page's port to the preload. */
export const IMAGE_PORT_CHANNEL = 'pictor-image:port';

/** What the preload posts to the page, with the port, through `window.postMessage`. */
export const IMAGE_PORT_MESSAGE = 'pictor-image-port';

/** The Content Credentials library's WebAssembly module, beside the page's scripts. */
export const PAGE_C2PA_WASM = 'c2pa_bg.wasm';

/**
 * The page's own ceiling on the pixels of any image it decodes or draws, whatever a job says:
 * the main process's header check applies a limit (as low as the user set) before a job is sent,
 * and this one holds even if the two disagree about a crafted header.
 */
export const PAGE_MAX_PIXELS = 100_000_000;

/** The most bytes the page reads from one job's URL; a longer body fails the job. */
export const PAGE_MAX_SOURCE_BYTES = 256 * 1024 * 1024;

/**
 * A worker that has made Chromium hold this many bytes (each new canvas it drew on and each Blob
 * it encoded to, four bytes per pixel of each YUV frame it converted: decode.ts) is ended after
 * its job and replaced. Each encoded thumbnail passes through
 * a small Blob (OffscreenCanvas encodes to nothing else) that the browser process (in Electron,
 * the main process) holds until the worker's heap is collected, which is rare for objects that
 * small: ending the worker releases all of it at once. The budget spares images a worker start
 * (every decoder is handed its bytes, released when it closes, however large the image).
 */
export const PAGE_WORKER_BYTES_BUDGET = 24 * 1024 * 1024;

/**
 * How the page encodes a thumbnail's WebP: at every engine's quality (thumbnail-webp.ts). The
 * page's canvas encoder (toDataURL: electron/image-renderer/encode-thumbnail.ts) takes only a
 * quality (0–1); Chromium's encoder (Skia's SkWebpEncoder) fixes libwebp's method, its effort, at
 * 3 of 6 for lossy WebP. Another encoder held to the page's work (the bench's sharp control)
 * encodes so.
 */
export const PAGE_THUMBNAIL_WEBP = { quality: THUMBNAIL_WEBP_QUALITY, method: 3 } as const;

/** Decode the image at `url` in full and make a WebP thumbnail. */
export interface ThumbnailJob {
  readonly type: 'thumbnail';
  readonly id: number;
  /** The image's bytes: a one-time address on the image protocol. */
  readonly url: string;
  /**
   * The format the main process's header check read; the bytes must start as it does. They are
   * read straight into the worker's own buffer and decoded there (WebCodecs' ImageDecoder), so no
   * Blob of them is held by the browser process, which in Electron is the main process.
   */
  readonly format: 'png' | 'jpeg' | 'webp';
  /** The stored size, as the main process read it from the header. */
  readonly width: number;
  readonly height: number;
  /** The size once its EXIF orientation is applied: the decoded bitmap must have it. */
  readonly orientedWidth: number;
  readonly orientedHeight: number;
  /** The thumbnail fits inside this on each side, never enlarged. */
  readonly thumbnailSize: number;
}

/** Decode the image at `url` and encode it as a PNG that fits inside `maxSide`. */
export interface PngJob {
  readonly type: 'png';
  readonly id: number;
  readonly url: string;
  readonly maxSide: number | null;
}

/** Draw the SVG at `url` at exactly this size and encode it as a PNG. */
export interface SvgJob {
  readonly type: 'svg';
  readonly id: number;
  readonly url: string;
  readonly width: number;
  readonly height: number;
}

/**
 * Read and validate the C2PA manifest store (Content Credentials) of the file at `url` with
 * @contentauth/c2pa-wasm, on a worker of its own that is ended when the job is cancelled.
 */
export interface VerifyJob {
  readonly type: 'verify';
  readonly id: number;
  readonly url: string;
  readonly mime: C2paMime;
  /** A longer file is not read: `unreadable`. */
  readonly maxBytes: number;
  /** PEM certificates a signer must chain to for "trusted". */
  readonly trustAnchors: string;
}

/** Stop working on job `id` (it timed out or was aborted in the main process). */
export interface CancelJob {
  readonly type: 'cancel';
  readonly id: number;
}

export type ImageJob = ThumbnailJob | PngJob | SvgJob | VerifyJob;
export type PageRequest = ImageJob | CancelJob;

/**
 * What the page answers. Binary parts are `Uint8Array`s, cloned to the main process, never
 * transferred: Electron drops the data of a message whose ArrayBuffer is transferred to a
 * MessagePortMain (electron/electron#34905).
 */
export type PageAnswer =
  /** The page has its port and its workers: jobs may come. */
  | { readonly type: 'ready' }
  | {
      readonly type: 'thumbnail';
      readonly id: number;
      readonly width: number;
      readonly height: number;
      readonly webp: Uint8Array;
    }
  | { readonly type: 'png'; readonly id: number; readonly png: Uint8Array }
  /** A verify job's verdict (the main process checks its shape: credentialVerdictSchema). */
  | { readonly type: 'credentials'; readonly id: number; readonly verdict: CredentialVerdict }
  /** The bytes are not an image the page decodes (truncated, corrupt, over a limit). */
  | { readonly type: 'undecodable'; readonly id: number; readonly detail: string }
  /** The page could not do the job for a reason of its own (the bytes did not arrive…). */
  | { readonly type: 'failed'; readonly id: number; readonly detail: string };

/** Longest `detail` the main process keeps from an answer. */
export const MAX_ANSWER_DETAIL = 300;
