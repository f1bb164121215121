/**
 * Re-packs a PNG's compressed pixel stream as stored (uncompressed) deflate blocks, inflating it
 * with Node's own zlib. sharp's WebAssembly build inflates about ten times slower than native
 * code, and inflating is most of a PNG decode; after this, its decoder only copies the bytes
 * (see docs/PERFORMANCE.md, "Image pipeline").
 *
 * It never judges an image: whenever the file is not a plain, intact PNG (a bad chunk, a CRC
 * mismatch, a stream that is short, long or broken), it returns `null` and the caller hands the
 * original bytes to sharp, whose own checks then decide. The inflated size is known from the
 * header, so a stream that inflates to more than that is stopped there, and an image over the
 * caller's pixel limit is not inflated at all.
 */
import { crc32, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Output IDAT chunk size; any size is valid, this keeps each one ordinary. */
const IDAT_CHUNK_BYTES = 1024 * 1024;
/** The most a stored deflate block holds (its length is 16 bits). */
const STORED_BLOCK_BYTES = 0xffff;
/** CRC-32 of the chunk type, the start of every IDAT chunk's CRC. */
const IDAT_CRC = crc32('IDAT');
/** Samples per pixel and the bit depths allowed, by colour type (PNG spec, IHDR). */
const COLOUR_TYPES: Readonly<Record<number, { channels: number; depths: readonly number[] }>> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};
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
  const colour = COLOUR_TYPES[chunk.data[9] ?? -1];
  const interlace = chunk.data[12];
  if (!width || !height || !colour?.depths.includes(bitDepth)) return null;
  if (interlace !== 0 && interlace !== 1) return null;
  return { width, height, bitsPerPixel: colour.channels * bitDepth, interlaced: interlace === 1 };
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

/** Bytes of the zlib stream holding `size` bytes as stored blocks: header, blocks, Adler-32. */
function storedStreamSize(size: number): number {
  return 2 + Math.max(1, Math.ceil(size / STORED_BLOCK_BYTES)) * 5 + size + 4;
}

/**
 * True when every scanline starts with one of PNG's five filter types (0-4). A decoder rejects any
 * other; checked here because the decode of a re-packed file does not repeat this module's checks.
 */
function filtersValid(raw: Buffer, header: Header): boolean {
  const passes: readonly (readonly [number, number, number, number])[] = header.interlaced
    ? ADAM7
    : [[0, 0, 1, 1]];
  let offset = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const width = Math.ceil((header.width - x0) / dx);
    const height = Math.ceil((header.height - y0) / dy);
    if (width === 0 || height === 0) continue;
    const stride = 1 + Math.ceil((width * header.bitsPerPixel) / 8);
    for (let row = 0; row < height; row += 1, offset += stride) {
      if ((raw[offset] ?? 0xff) > 4) return false;
    }
  }
  return true;
}

/**
 * Writes `raw` at `at` in `out` as a zlib stream of stored blocks, cut into IDAT chunks of at most
 * {@link IDAT_CHUNK_BYTES}; `adler` is the stream's checksum. Returns the offset after the last.
 */
function writeStoredIdat(out: Buffer, at: number, raw: Buffer, adler: number): number {
  let w = at;
  let streamLeft = storedStreamSize(raw.length);
  let chunkData = 0;
  let chunkLeft = 0;
  // Appends stream bytes, opening an IDAT chunk where one is full and closing it with its CRC.
  const put = (source: Uint8Array, from = 0, to = source.length): void => {
    while (from < to) {
      if (chunkLeft === 0) {
        chunkLeft = Math.min(IDAT_CHUNK_BYTES, streamLeft);
        streamLeft -= chunkLeft;
        out.writeUInt32BE(chunkLeft, w);
        out.write('IDAT', w + 4, 'latin1');
        w += 8;
        chunkData = w;
      }
      const n = Math.min(chunkLeft, to - from);
      out.set(source.subarray(from, from + n), w);
      [w, from, chunkLeft] = [w + n, from + n, chunkLeft - n];
      if (chunkLeft === 0) {
        out.writeUInt32BE(crc32(out.subarray(chunkData, w), IDAT_CRC), w);
        w += 4;
      }
    }
  };
  // zlib header: deflate with a 32 KiB window, no dictionary; (0x78 << 8 | 0x01) % 31 === 0.
  put(Uint8Array.of(0x78, 0x01));
  const blockHead = Buffer.alloc(5);
  for (let r = 0; r < raw.length; r += STORED_BLOCK_BYTES) {
    const length = Math.min(STORED_BLOCK_BYTES, raw.length - r);
    blockHead[0] = r + length === raw.length ? 1 : 0; // BFINAL; BTYPE 00 is "stored"
    blockHead.writeUInt16LE(length, 1);
    blockHead.writeUInt16LE(~length & 0xffff, 3);
    put(blockHead);
    put(raw, r, r + length);
  }
  blockHead.writeUInt32BE(adler, 0);
  put(blockHead, 0, 4);
  return w;
}

/**
 * The IDAT chunks' stream inflated into one buffer of `size` bytes, with the stream's Adler-32
 * (which zlib checked against those bytes); null when the stream is broken, inflates to any other
 * size, or has bytes after its end. Synchronous and in one output buffer: it runs on the image
 * worker's own thread, and measured faster than inflating piece by piece on the thread pool.
 */
function inflateIdat(idat: readonly Chunk[], size: number): { raw: Buffer; adler: number } | null {
  const stream =
    idat.length === 1
      ? (idat[0]?.data ?? Buffer.alloc(0))
      : Buffer.concat(idat.map((chunk) => chunk.data));
  try {
    // One byte over the expected size is enough to tell a stream that is too long.
    const inflated = inflateSync(stream, {
      chunkSize: Math.max(64, size + 1), // zlib's least is 64
      maxOutputLength: size + 1,
      info: true,
    }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    // zlib leaves bytes after the end of the stream unread: not a plain stream.
    if (inflated.engine.bytesWritten !== stream.length || inflated.buffer.length !== size)
      return null;
    return { raw: inflated.buffer, adler: stream.readUInt32BE(stream.length - 4) };
  } catch {
    return null;
  }
}

/**
 * The same PNG with its IDAT stream re-packed as stored blocks, or `null` to use the original.
 * An image of more than `maxPixels` pixels is left to the caller's own limit before anything is
 * inflated; its inflated stream is then at most 8 bytes a pixel plus a byte a row.
 *
 * When it returns a file, that file is intact by construction: every chunk's CRC was checked,
 * zlib inflated the whole stream to exactly the size the header gives and checked its Adler-32,
 * and every scanline has a valid filter type; its own CRCs and checksum are those of the same
 * bytes. Its decode need not check them again (image-worker.ts decodes it with `failOn: 'none'`).
 */
export function storedPng(png: Buffer, maxPixels: number): Buffer | null {
  const chunks = readChunks(png);
  const header = readHeader(chunks?.[0]);
  if (!chunks || !header || header.width * header.height > maxPixels) return null;
  const first = chunks.findIndex((chunk) => chunk.type === 'IDAT');
  const last = chunks.findLastIndex((chunk) => chunk.type === 'IDAT');
  if (first < 0) return null;
  const idat = chunks.slice(first, last + 1);
  const [head, tail] = [idat[0], idat.at(-1)];
  if (!head || !tail || idat.some((chunk) => chunk.type !== 'IDAT')) return null;
  const inflated = inflateIdat(idat, inflatedSize(header));
  if (!inflated || !filtersValid(inflated.raw, header)) return null;
  const before = png.subarray(0, head.start);
  const after = png.subarray(tail.end);
  const streamSize = storedStreamSize(inflated.raw.length);
  const out = Buffer.allocUnsafe(
    before.length + Math.ceil(streamSize / IDAT_CHUNK_BYTES) * 12 + streamSize + after.length,
  );
  before.copy(out, 0);
  after.copy(out, writeStoredIdat(out, before.length, inflated.raw, inflated.adler));
  return out;
}
