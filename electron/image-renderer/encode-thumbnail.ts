/**
 * The page encodes each thumbnail's WebP on its own thread, from the bitmap a decode worker made
 * and transferred (decode.ts), with `HTMLCanvasElement.toDataURL`: the bytes stay in this
 * renderer. A worker's encoder (OffscreenCanvas.convertToBlob) makes a Blob, and every Blob's
 * bytes are copied to the browser process (in Electron, the main process) and copied back when
 * read: about 1 ms of the browser's CPU per thumbnail, and memory it holds until the worker's heap
 * is collected. Both encoders are Chromium's (Skia's SkWebpEncoder, the same options for the same
 * quality: PAGE_THUMBNAIL_WEBP); encoding here costs the page's thread the base64 text.
 */
import { PAGE_THUMBNAIL_WEBP } from '../../shared/image-renderer/protocol';
import { drawnOn } from './draw-bitmap';

/** WebP quality of thumbnails (0–1): small files, no visible blocks at 384 px. */
const THUMBNAIL_QUALITY = PAGE_THUMBNAIL_WEBP.quality / 100;

const WEBP_DATA_URL = 'data:image/webp;base64,';

/** The canvas thumbnails are drawn on: one, sized to each (a batch's mostly share one size). */
let kept: {
  readonly canvas: HTMLCanvasElement;
  readonly context: CanvasRenderingContext2D;
} | null = null;

function canvasOf(width: number, height: number) {
  if (!kept) {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No canvas.');
    kept = { canvas, context };
  }
  const { canvas, context } = kept;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  } else context.clearRect(0, 0, width, height);
  return kept;
}

/** `bitmap` (closed here) drawn and encoded as a WebP thumbnail. */
export function thumbnailWebp(bitmap: ImageBitmap): Uint8Array {
  const url = drawnOn(bitmap, canvasOf).toDataURL('image/webp', THUMBNAIL_QUALITY);
  // A Chromium that cannot encode WebP answers a PNG data URL.
  if (!url.startsWith(WEBP_DATA_URL)) throw new Error('The page cannot encode image/webp.');
  const text = atob(url.slice(WEBP_DATA_URL.length));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}
