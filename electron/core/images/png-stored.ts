/**
 * Re-packs a PNG's compressed pixel stream as stored (uncompressed) deflate blocks, inflating it
 * with Node's own zlib. sharp's WebAssembly build inflates about ten times slower than native
 * code, and inflating is most of a PNG decode; after this, its decoder only copies the bytes
 * (see docs/PERFORMANCE.md, "Image pipeline").
 *
 * It never judges an image: whenever the file is not a plain, intact PNG (a bad chunk, a CRC
 * mismatch, a stream that is short, long or broken), it returns `null` and the caller hands the
 * original bytes to sharp, whose own checks then decide. The inflated size is known from the
 * header, so a stream that inflates to more than that is stopped there.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** zlib's output step: its 16 KiB default costs a call per 16 KiB of a 12 MB stream. */
const ZLIB_CHUNK_BYTES = 1024 * 1024;
/** Output IDAT chunk size; any size is valid, this keeps each one ordinary. */
const IDAT_CHUNK_BYTES = 1024 * 1024;
/** Samples per pixel by colour type (PNG spec, IHDR). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7: [x start, y start, x step, y step] of each pass. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

interface Chunk {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly data: Buffer;
}

interface Header {
  readonly width: number;
  readonly height: number;
  readonly bitsPerPixel: number;
  readonly interlaced: boolean;
}

function readChunks(png: Buffer): Chunk[] | null {
  if (png.length < SIGNATURE.length || !png.subarray(0, 8).equals(SIGNATURE)) return null;
  const chunks: Chunk[] = [];
  let offset = SIGNATURE.length;
  while (offset < png.length) {
    if (offset + 12 > png.length) return null;
    const length = png.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > png.length) return null;
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    if (crc32(typeAndData) !== png.readUInt32BE(offset + 8 + length)) return null;
    const type = png.toString('latin1', offset + 4, offset + 8);
    chunks.push({ type, start: offset, end, data: png.subarray(offset + 8, offset + 8 + length) });
    offset = end;
    if (type === 'IEND') return offset === png.length ? chunks : null;
  }
  return null;
}

function readHeader(chunk: Chunk | undefined): Header | null {
  if (chunk?.type !== 'IHDR' || chunk.data.length !== 13) return null;
  const width = chunk.data.readUInt32BE(0);
  const height = chunk.data.readUInt32BE(4);
  const bitDepth = chunk.data[8] ?? 0;
  const channels = CHANNELS[chunk.data[9] ?? -1];
  const interlace = chunk.data[12];
  if (!width || !height || !channels || ![1, 2, 4, 8, 16].includes(bitDepth)) return null;
  if (interlace !== 0 && interlace !== 1) return null;
  return { width, height, bitsPerPixel: channels * bitDepth, interlaced: interlace === 1 };
}

/** Bytes of the filtered scanlines: one filter byte per row, rows rounded up to whole bytes. */
export function inflatedSize(header: Header): number {
  const rows = (width: number, height: number) =>
    width === 0 || height === 0 ? 0 : height * (1 + Math.ceil((width * header.bitsPerPixel) / 8));
  if (!header.interlaced) return rows(header.width, header.height);
  return ADAM7.reduce(
    (total, [x0, y0, dx, dy]) =>
      total + rows(Math.ceil((header.width - x0) / dx), Math.ceil((header.height - y0) / dy)),
    0,
  );
}

function chunkBytes(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(type)), 0);
  return Buffer.concat([head, data, tail]);
}

/**
 * The same PNG with its IDAT stream re-packed as stored blocks, or `null` to use the original.
 * `maxInflatedBytes` bounds the memory the inflated stream may take. Synchronous: it runs in the
 * image worker's own thread, where blocking costs nothing and saves zlib's thread-pool trips.
 */
export function storedPng(png: Buffer, maxInflatedBytes: number): Buffer | null {
  const chunks = readChunks(png);
  const header = readHeader(chunks?.[0]);
  if (!chunks || !header) return null;
  const first = chunks.findIndex((chunk) => chunk.type === 'IDAT');
  const last = chunks.findLastIndex((chunk) => chunk.type === 'IDAT');
  if (first < 0) return null;
  const idat = chunks.slice(first, last + 1);
  const [head, tail] = [idat[0], idat.at(-1)];
  if (!head || !tail || idat.some((chunk) => chunk.type !== 'IDAT')) return null;
  const expected = inflatedSize(header);
  if (expected > maxInflatedBytes) return null;
  let raw: Buffer;
  try {
    // One byte over the expected size is enough to tell a stream that is too long.
    raw = inflateSync(Buffer.concat(idat.map((chunk) => chunk.data)), {
      maxOutputLength: expected + 1,
      chunkSize: ZLIB_CHUNK_BYTES,
    });
  } catch {
    return null;
  }
  if (raw.length !== expected) return null;
  const stored = deflateSync(raw, { level: 0, chunkSize: ZLIB_CHUNK_BYTES });
  const parts: Buffer[] = [png.subarray(0, head.start)];
  for (let offset = 0; offset < stored.length; offset += IDAT_CHUNK_BYTES) {
    parts.push(chunkBytes('IDAT', stored.subarray(offset, offset + IDAT_CHUNK_BYTES)));
  }
  parts.push(png.subarray(tail.end));
  return Buffer.concat(parts);
}
