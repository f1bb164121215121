/**
 * The stored size an image's own header declares, read by the page before any decoder sees the
 * bytes, so the page's pixel ceiling holds whatever the job said. PNG's IHDR, WebP's VP8/VP8L/VP8X
 * and JPEG's first SOF marker; anything else has no size here and is refused.
 */
import type { ImageKind } from '../../shared/domain/image-kind';

export interface StoredSize {
  readonly width: number;
  readonly height: number;
}

/** How far into a JPEG the page looks for its SOF marker (metadata segments come first). */
const SIZE_SNIFF_BYTES = 1024 * 1024;

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function u16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function u32be(bytes: Uint8Array, at: number): number {
  return u16be(bytes, at) * 65_536 + u16be(bytes, at + 2);
}

function u24le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
}

function pngSize(bytes: Uint8Array): StoredSize | null {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') return null;
  return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

function webpSize(bytes: Uint8Array): StoredSize | null {
  if (bytes.length < 30 || ascii(bytes, 8, 4) !== 'WEBP') return null;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8X') return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return null;
    const bits = u24le(bytes, 21) + (bytes[24] ?? 0) * 16_777_216;
    return { width: (bits & 0x3fff) + 1, height: (Math.floor(bits / 16_384) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  return null;
}

function u16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers with no length: TEM and RST0–7. */
function standsAlone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

function jpegSize(bytes: Uint8Array): StoredSize | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (standsAlone(marker)) {
      at += 2;
      continue;
    }
    // Image data (SOS) or the end before any frame header: there is no size to read.
    if (marker === 0xda || marker === 0xd9) return null;
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return null;
      return { width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
    }
    at += 2 + u16be(bytes, at + 2);
  }
  return null;
}

/** The size `bytes` (a whole file of `kind`, as its signature says) declare in their header. */
export function storedSizeOfBytes(bytes: Uint8Array, kind: ImageKind): StoredSize | null {
  const head = bytes.subarray(0, SIZE_SNIFF_BYTES);
  if (kind === 'png') return pngSize(head);
  if (kind === 'webp') return webpSize(head);
  return jpegSize(head);
}
