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

/** Offsets of every scanline's filter byte in the inflated stream, in order, pass by pass. */
function* filterOffsets(header: Header): Generator<number> {
  const passes: readonly (readonly [number, number, number, number])[] = header.interlaced
    ? ADAM7
    : [[0, 0, 1, 1]];
  let offset = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const width = Math.ceil((header.width - x0) / dx);
    const height = Math.ceil((header.height - y0) / dy);
    if (width === 0 || height === 0) continue;
    const stride = 1 + Math.ceil((width * header.bitsPerPixel) / 8);
    for (let row = 0; row < height; row += 1, offset += stride) yield offset;
  }
}

/**
 * Takes the inflated stream (in one piece or several) and writes it, at `at` in `out`,
 * as a zlib stream of stored blocks cut into IDAT chunks. On the way it checks that every
 * scanline starts with one of PNG's five filter types (0-4): a decoder rejects any other, and the
 * decode of a re-packed file does not repeat the checks made here (see `storedPng`).
 */
class StoredIdatWriter {
  private w: number;
  private streamLeft: number;
  private chunkData = 0;
  private chunkLeft = 0;
  /** Inflated bytes taken so far. */
  private taken = 0;
  private readonly filters: Generator<number>;
  private nextFilter: number;
  private readonly blockHead = Buffer.alloc(5);

  private readonly out: Buffer;
  private readonly size: number;

  constructor(out: Buffer, at: number, header: Header, size: number) {
    this.out = out;
    this.size = size;
    this.w = at;
    this.streamLeft = storedStreamSize(size);
    this.filters = filterOffsets(header);
    this.nextFilter = this.filters.next().value ?? Infinity;
    // zlib header: deflate with a 32 KiB window, no dictionary; (0x78 << 8 | 0x01) % 31 === 0.
    this.put(Uint8Array.of(0x78, 0x01));
  }

  /** The next inflated bytes; false when they run past the size or hold a bad filter type. */
  take(piece: Uint8Array): boolean {
    const start = this.taken;
    if (start + piece.length > this.size) return false;
    for (
      ;
      this.nextFilter < start + piece.length;
      this.nextFilter = this.filters.next().value ?? Infinity
    ) {
      if ((piece[this.nextFilter - start] ?? 0xff) > 4) return false;
    }
    let from = 0;
    while (from < piece.length) {
      const inBlock = this.taken % STORED_BLOCK_BYTES;
      if (inBlock === 0) this.openBlock();
      const n = Math.min(piece.length - from, STORED_BLOCK_BYTES - inBlock);
      this.put(piece, from, from + n);
      from += n;
      this.taken += n;
    }
    return true;
  }

  /** True once exactly `size` bytes were taken. */
  complete(): boolean {
    return this.taken === this.size;
  }

  /** Ends the stream with its Adler-32; the offset after the last chunk. */
  finish(adler: number): number {
    this.blockHead.writeUInt32BE(adler, 0);
    this.put(this.blockHead, 0, 4);
    return this.w;
  }

  private openBlock(): void {
    const length = Math.min(STORED_BLOCK_BYTES, this.size - this.taken);
    this.blockHead[0] = this.taken + length === this.size ? 1 : 0; // BFINAL; BTYPE 00: stored
    this.blockHead.writeUInt16LE(length, 1);
    this.blockHead.writeUInt16LE(~length & 0xffff, 3);
    this.put(this.blockHead);
  }

  /** Appends stream bytes, opening an IDAT chunk where one is full and closing it with its CRC. */
  private put(source: Uint8Array, from = 0, to = source.length): void {
    const out = this.out;
    while (from < to) {
      if (this.chunkLeft === 0) {
        this.chunkLeft = Math.min(IDAT_CHUNK_BYTES, this.streamLeft);
        this.streamLeft -= this.chunkLeft;
        out.writeUInt32BE(this.chunkLeft, this.w);
        out.write('IDAT', this.w + 4, 'latin1');
        this.w += 8;
        this.chunkData = this.w;
      }
      const n = Math.min(this.chunkLeft, to - from);
      out.set(source.subarray(from, from + n), this.w);
      this.w += n;
      from += n;
      this.chunkLeft -= n;
      if (this.chunkLeft === 0) {
        out.writeUInt32BE(crc32(out.subarray(this.chunkData, this.w), IDAT_CRC), this.w);
        this.w += 4;
      }
    }
  }
}

/**
 * Inflates the IDAT chunks' data, in order, into one buffer of `size` bytes, or null when the
 * stream is broken (zlib checks its Adler-32), inflates to any other size, or has bytes after its
 * end. Synchronous, and in one output buffer: this runs on the image worker's own thread, where
 * blocking costs nothing, and it measured faster than inflating piece by piece on the thread pool.
 */
function inflateIdat(idat: readonly Chunk[], size: number): Buffer | null {
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
    if (inflated.engine.bytesWritten !== stream.length) return null;
    return inflated.buffer.length === size ? inflated.buffer : null;
  } catch {
    return null;
  }
}

/**
 * The same PNG with its IDAT stream re-packed as stored blocks, or `null` to use the original.
 * `maxInflatedBytes` bounds the memory the inflated stream and the result may take.
 *
 * When it returns a file, that file is intact by construction: every chunk's CRC was checked,
 * zlib inflated the whole stream to exactly the size the header gives and checked its Adler-32,
 * and every scanline has a valid filter type; its own CRCs and checksum are those of the same
 * bytes. Its decode need not check them again (image-worker.ts decodes it with `failOn: 'none'`).
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
  const before = png.subarray(0, head.start);
  const after = png.subarray(tail.end);
  const streamSize = storedStreamSize(expected);
  const out = Buffer.allocUnsafe(
    before.length + Math.ceil(streamSize / IDAT_CHUNK_BYTES) * 12 + streamSize + after.length,
  );
  before.copy(out, 0);
  const raw = inflateIdat(idat, expected);
  const writer = new StoredIdatWriter(out, before.length, header, expected);
  if (!raw || !writer.take(raw) || !writer.complete()) return null;
  // zlib checked the stream's Adler-32, its last four bytes, against these very bytes.
  const adler = Buffer.concat(idat.slice(-4).map((chunk) => chunk.data.subarray(-4))).subarray(-4);
  if (adler.length !== 4) return null;
  after.copy(out, writer.finish(adler.readUInt32BE(0)));
  return out;
}
