/**
 * An image file's outline: its bytes with the pixel data left out (a PNG's IDAT/fdAT data, a
 * WebP's VP8/VP8L/ALPH data, a JPEG's entropy-coded scans), read from the file a part at a time,
 * so the download can ask whether a held key is in its metadata without holding the whole image
 * in the main process (download/key-intake.ts). The outline is a file of the same kind whose
 * pixel chunks are empty: metadata-parts.ts walks it as it walks the file, and searches the same
 * bytes. Past `maxBytes` of outline or MAX_PARTS chunks or segments (a crafted file of metadata,
 * or of millions of empty chunks: a read each) the answer is null: the caller reads the file
 * whole, within its cap. A PNG edited as it downloads has its outline made as it
 * was written (gallery/metadata/png-stream.ts: the same bytes, held to this walk by its test).
 */
import type { FileHandle } from 'node:fs/promises';
import type { ImageKind } from './image-sniff';
import { MAX_PARTS } from './metadata-parts';

/** A JPEG scan is read this much at a time to find where it ends. */
const SCAN_WINDOW = 64 * 1024;

async function readAt(handle: FileHandle, at: number, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
  return buffer.subarray(0, bytesRead);
}

/** Small reads are served from one window of this many bytes read at once. */
const HEAD_WINDOW = 4 * 1024;

/**
 * Reads of `handle` (as {@link readAt}) served from one window of {@link HEAD_WINDOW} bytes: a run
 * of small chunks is one read, not two a chunk (a crafted file of 12-byte chunks was ~130,000
 * reads before MAX_PARTS stopped it). Each answer is a copy: a kept piece holds no window.
 */
function windowedReads(handle: FileHandle) {
  let from = 0;
  let window: Buffer = Buffer.alloc(0);
  return async (at: number, length: number): Promise<Buffer> => {
    if (length > HEAD_WINDOW) return readAt(handle, at, length);
    if (at < from || at + length > from + window.length) {
      window = await readAt(handle, at, HEAD_WINDOW);
      from = at;
    }
    return Buffer.from(window.subarray(at - from, at - from + length));
  };
}

/** Chunks `[length][type]…` (PNG: big-endian, 12 bytes of frame; WebP: little-endian, 8). */
async function chunked(handle: FileHandle, size: number, kind: 'png' | 'webp', max: number) {
  const png = kind === 'png';
  const read = windowedReads(handle);
  const start = png ? 8 : 12;
  const pieces = [await read(0, start)];
  let kept = start;
  let at = start;
  while (at + 8 <= size) {
    if (pieces.length >= MAX_PARTS) return null;
    const head = await read(at, 8);
    const length = png ? head.readUInt32BE(0) : head.readUInt32LE(4);
    const type = head.toString('latin1', png ? 4 : 0, png ? 8 : 4);
    const whole = (png ? 12 : 8) + length + (png ? 0 : length % 2);
    const pixels = png ? type === 'IDAT' || type === 'fdAT' : /^(VP8 |VP8L|ALPH)$/.test(type);
    if (pixels) {
      const empty = Buffer.alloc(png ? 12 : 8);
      head.copy(empty, 0, 0, 8);
      if (png) empty.writeUInt32BE(0, 0);
      else empty.writeUInt32LE(0, 4);
      pieces.push(empty);
    } else if (type === 'ANMF' && !png) {
      // A frame's own chunks follow its 16 bytes of header: in the outline, after the frame.
      const frame = await read(at, 24);
      if (frame.length >= 8) frame.writeUInt32LE(16, 4);
      pieces.push(frame);
      at += 24;
      kept += 24;
      continue;
    } else {
      // A chunk is read no further than the file, nor than one byte past `max` (the answer is
      // null then): a 40-byte file declaring a 4 GiB chunk allocated 4 GiB for its read.
      pieces.push(await read(at, Math.min(whole, size - at, max - kept + 1)));
    }
    kept += pieces.at(-1)?.length ?? 0;
    if (kept > max) return null;
    at += whole;
    // After IEND nothing is a chunk (metadata-parts.ts searches it whole): bytes shaped as a
    // pixel chunk there are not stepped over.
    if (png && type === 'IEND') break;
  }
  const tail = at < size ? await read(at, Math.min(size - at, max - kept + 1)) : null;
  if (tail) pieces.push(tail);
  return kept + (tail?.length ?? 0) > max ? null : Buffer.concat(pieces);
}

/** Where the scan whose data starts at `at` ends (its next marker, not RSTn nor FF00). */
async function scanEndOf(handle: FileHandle, size: number, at: number): Promise<number> {
  for (let from = at; from < size; from += SCAN_WINDOW) {
    const window = await readAt(handle, from, SCAN_WINDOW + 1);
    for (let n = window.indexOf(0xff); n >= 0 && n < SCAN_WINDOW; n = window.indexOf(0xff, n + 1)) {
      const next = window[n + 1];
      if (next === undefined) return size;
      if (next !== 0x00 && next !== 0xff && (next < 0xd0 || next > 0xd7)) return from + n;
    }
  }
  return size;
}

async function jpegOutline(handle: FileHandle, size: number, max: number) {
  const read = windowedReads(handle);
  const pieces = [await read(0, 2)];
  let kept = 2;
  let at = 2;
  while (at + 4 <= size) {
    if (pieces.length >= MAX_PARTS) return null;
    const head = await read(at, 4);
    if (head[0] !== 0xff) break;
    const marker = head[1] ?? 0;
    const end = marker === 0xff ? at + 1 : marker === 0xd9 ? at + 2 : at + 2 + head.readUInt16BE(2);
    pieces.push(await read(at, end - at));
    kept += end - at;
    if (kept > max) return null;
    at = marker === 0xda ? await scanEndOf(handle, size, end) : end;
    if (marker === 0xd9) break;
  }
  pieces.push(await read(at, Math.min(size - at, max - kept + 1)));
  return kept + (pieces.at(-1)?.length ?? 0) > max ? null : Buffer.concat(pieces);
}

/**
 * The outline of the `kind` image open at `handle` (`size` bytes), or null past `maxBytes`.
 * What follows the last chunk (bytes after IEND, a broken tail) is in it as it is.
 */
export async function metadataOutline(
  handle: FileHandle,
  size: number,
  kind: ImageKind,
  maxBytes: number,
): Promise<Buffer | null> {
  if (kind === 'jpeg') return jpegOutline(handle, size, maxBytes);
  return chunked(handle, size, kind, maxBytes);
}
