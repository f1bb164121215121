/**
 * The JUMBF manifest stores an image in memory carries, taken out of its container the way C2PA
 * embeds them (gallery/metadata/c2pa-detect.ts finds them in a file the same way):
 *
 * - PNG: each `caBX` chunk's data;
 * - WebP: each `C2PA` RIFF chunk's data;
 * - JPEG: the APP11 segments of each JUMBF box instance (`JP`, box instance, sequence number, the
 *   box header repeated in every segment, a piece of the box), put back together in sequence
 *   order, the first copy of each sequence number kept and the repeated headers dropped.
 *
 * Only chunk and segment headers are read; each count is capped. A container that breaks off is
 * taken as far as it holds together. Used by the pre-count (store-census.ts) on the bytes the
 * verifier was handed, before any verification.
 */
import type { ImageFormat } from '../../ports/image-engine';

/** More chunks or segments than any real image has (c2pa-detect.ts caps its walk the same way). */
export const MAX_CONTAINER_PARTS = 200_000;

/** The stores found, or `null` when the container has more parts than {@link MAX_CONTAINER_PARTS}. */
export type StoreParts = Uint8Array[] | null;

const be16 = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const be32 = (b: Uint8Array, at: number) => be16(b, at) * 0x10000 + be16(b, at + 2);
const le32 = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16)) +
  (b[at + 3] ?? 0) * 0x1000000;
/** Whether the four bytes at `at` spell `type` (no string is made: a file may have 200,000 parts). */
function isType(b: Uint8Array, at: number, type: string): boolean {
  for (let i = 0; i < type.length; i += 1) if (b[at + i] !== type.charCodeAt(i)) return false;
  return true;
}

function pngStores(bytes: Uint8Array): StoreParts {
  const stores: Uint8Array[] = [];
  for (let at = 8, count = 0; at + 12 <= bytes.length; count += 1) {
    if (count >= MAX_CONTAINER_PARTS) return null;
    const length = be32(bytes, at);
    const end = at + 12 + length;
    if (end > bytes.length) break;
    if (isType(bytes, at + 4, 'caBX')) stores.push(bytes.subarray(at + 8, at + 8 + length));
    if (isType(bytes, at + 4, 'IEND')) break;
    at = end;
  }
  return stores;
}

function webpStores(bytes: Uint8Array): StoreParts {
  const stores: Uint8Array[] = [];
  const end = Math.min(bytes.length, le32(bytes, 4) + 8);
  for (let at = 12, count = 0; at + 8 <= end; count += 1) {
    if (count >= MAX_CONTAINER_PARTS) return null;
    const size = le32(bytes, at + 4);
    if (at + 8 + size > end) break;
    if (isType(bytes, at, 'C2PA')) stores.push(bytes.subarray(at + 8, at + 8 + size));
    at += 8 + size + (size % 2);
  }
  return stores;
}

/** A JPEG JUMBF box's segments by sequence number (the first copy of each). */
type JpegBoxes = Map<number, Map<number, Uint8Array>>;

function addSegment(boxes: JpegBoxes, data: Uint8Array): void {
  if (data.length < 16 || !isType(data, 0, 'JP')) return;
  const instance = be16(data, 2);
  const sequence = be32(data, 4);
  const pieces = boxes.get(instance) ?? new Map<number, Uint8Array>();
  if (!pieces.has(sequence)) pieces.set(sequence, data.subarray(8));
  boxes.set(instance, pieces);
}

/** One box put back together: the first piece whole, the others without the repeated header. */
function assemble(pieces: Map<number, Uint8Array>): Uint8Array {
  const ordered = [...pieces.entries()].sort((a, b) => a[0] - b[0]).map(([, piece]) => piece);
  const first = ordered[0] ?? new Uint8Array(0);
  const header = be32(first, 0) === 1 ? 16 : 8;
  const rest = ordered.slice(1).map((piece) => piece.subarray(header));
  const whole = new Uint8Array(first.length + rest.reduce((sum, piece) => sum + piece.length, 0));
  whole.set(first, 0);
  let at = first.length;
  for (const piece of rest) {
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}

function jpegStores(bytes: Uint8Array): StoreParts {
  const boxes: JpegBoxes = new Map();
  for (let at = 2, count = 0; at + 4 <= bytes.length; count += 1) {
    if (count >= MAX_CONTAINER_PARTS) return null;
    const code = bytes[at + 1] ?? 0;
    if (bytes[at] !== 0xff) break;
    if (code === 0xff) {
      at += 1;
      continue;
    }
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = be16(bytes, at + 2);
    // The image data (after the first scan) holds no metadata; a broken segment ends the walk.
    if (code === 0xda || code === 0xd8 || code === 0xd9 || code === 0) break;
    if (length < 2 || at + 2 + length > bytes.length) break;
    if (code === 0xeb) addSegment(boxes, bytes.subarray(at + 4, at + 2 + length));
    at += 2 + length;
  }
  return [...boxes.values()].map(assemble);
}

/** The manifest stores `bytes` (an image of `format`) carries; see the file's comment. */
export function storeParts(bytes: Uint8Array, format: ImageFormat): StoreParts {
  if (format === 'png') return pngStores(bytes);
  if (format === 'webp') return webpStores(bytes);
  return jpegStores(bytes);
}
