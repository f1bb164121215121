/**
 * The three image kinds Pictor keeps, told apart by their first bytes: the main process's
 * download and import checks (electron/core/images/image-sniff.ts) and the image page's decode
 * workers (electron/image-renderer/decode.ts) read the same signatures.
 */

export type ImageKind = 'png' | 'jpeg' | 'webp';

export const IMAGE_MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** The extension a saved image of each kind is named with. */
export const IMAGE_EXTENSION = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

/** Bytes needed to tell the three image kinds apart. */
export const SNIFF_BYTES = 12;

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
export const JPEG_SIGNATURE = [0xff, 0xd8, 0xff] as const;

export function startsWith(head: Uint8Array, bytes: readonly number[], offset = 0): boolean {
  return bytes.every((byte, i) => head[offset + i] === byte);
}

export function ascii(head: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...head.subarray(start, end));
}

/** The image kind the bytes start with, or `null` (also when fewer than 12 bytes are given). */
export function sniffImage(head: Uint8Array): ImageKind | null {
  if (head.length < SNIFF_BYTES) return null;
  if (startsWith(head, PNG_SIGNATURE)) return 'png';
  if (startsWith(head, JPEG_SIGNATURE)) return 'jpeg';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  return null;
}
