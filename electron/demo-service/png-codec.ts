/**
 * A small, bounded PNG decoder and encoder for the demo's image inputs: the demo derives its edit,
 * fill, upscale and expand answers from the pixels it was given (input-pixels.ts), with no image
 * library. It reads every PNG the format allows: greyscale, grey + alpha, truecolour, truecolour +
 * alpha and palette images at each of their bit depths (1, 2, 4, 8, 16: a 16-bit sample keeps its
 * high byte), plain or Adam7-interlaced. More pixels than the caller allows is
 * {@link PngUnsupportedError}, and the demo then draws a scene instead. A damaged file is
 * {@link PngDamagedError}: every chunk's CRC is checked, chunks must come in order, and the
 * inflated data may not be one byte longer than the image needs (zlib's maxOutputLength).
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { SIGNATURE, pngChunk } from '../core/gallery';
import { PNG_BIT_DEPTHS } from '../core/images';

/** An image as RGBA bytes, 4 a pixel, row after row. */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
  /** The file had alpha: a grey + alpha or RGBA colour type, or a tRNS chunk. */
  readonly hasAlpha: boolean;
}

/** The PNG breaks its own rules (CRC, chunk order, data length). */
export class PngDamagedError extends Error {
  override readonly name = 'PngDamagedError';
}

/** A valid PNG this decoder does not read: more pixels than the caller allows. */
export class PngUnsupportedError extends Error {
  override readonly name = 'PngUnsupportedError';
}

/** Samples a pixel has, by colour type. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const MAX_CHUNKS = 10_000;

interface Header {
  width: number;
  height: number;
  colorType: number;
  depth: number;
  interlaced: boolean;
}

interface Chunks {
  header: Header;
  data: Buffer;
  palette?: Buffer;
  transparency?: Buffer;
}

function damaged(message: string): never {
  throw new PngDamagedError(message);
}

function readHeader(data: Buffer, maxPixels: number): Header {
  if (data.length !== 13) damaged('The IHDR chunk has the wrong length.');
  const width = data.readUInt32BE(0);
  const height = data.readUInt32BE(4);
  const [depth, colorType, compression, filter, interlace] = data.subarray(8, 13);
  if (width < 1 || height < 1) damaged('The image has no pixels.');
  if (compression !== 0 || filter !== 0) damaged('Unknown compression or filter method.');
  if (colorType === undefined || CHANNELS[colorType] === undefined) damaged('Unknown colour type.');
  if (depth === undefined || !PNG_BIT_DEPTHS[colorType]?.includes(depth))
    damaged('A bit depth the colour type does not allow.');
  if (interlace !== 0 && interlace !== 1) damaged('Unknown interlace method.');
  if (width * height > maxPixels) throw new PngUnsupportedError('The image has too many pixels.');
  return { width, height, colorType, depth, interlaced: interlace === 1 };
}

/** The chunks that matter, each CRC checked, in the order the format requires. */
function readChunks(bytes: Uint8Array, maxPixels: number): Chunks {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.length < 8 || !file.subarray(0, 8).equals(SIGNATURE)) damaged('No PNG signature.');
  let at = 8;
  let header: Header | undefined;
  const data: Buffer[] = [];
  const found: Omit<Chunks, 'header' | 'data'> = {};
  for (let count = 0; count < MAX_CHUNKS; count += 1) {
    if (at + 12 > file.length) damaged('The file ends inside a chunk.');
    const length = file.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > file.length) damaged('A chunk runs past the end of the file.');
    const type = file.toString('latin1', at + 4, at + 8);
    const body = file.subarray(at + 8, at + 8 + length);
    if (crc32(file.subarray(at + 4, at + 8 + length)) !== file.readUInt32BE(end - 4)) {
      damaged(`The ${type} chunk's CRC is wrong.`);
    }
    if (type !== 'IHDR' && !header) damaged('The first chunk is not IHDR.');
    else if (type === 'IHDR')
      header = header ? damaged('A second IHDR chunk.') : readHeader(body, maxPixels);
    else if (type === 'PLTE') found.palette = body;
    else if (type === 'tRNS') found.transparency = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND' && header) return { header, data: Buffer.concat(data), ...found };
    at = end;
  }
  return damaged('Too many chunks.');
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A pass of the image: every pixel of it, or one of Adam7's seven (x0, y0, dx, dy). */
interface Pass {
  readonly x0: number;
  readonly y0: number;
  readonly dx: number;
  readonly dy: number;
}

const WHOLE: readonly Pass[] = [{ x0: 0, y0: 0, dx: 1, dy: 1 }];
const ADAM7: readonly Pass[] = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
].map(([x0 = 0, y0 = 0, dx = 1, dy = 1]) => ({ x0, y0, dx, dy }));

/** A pass's size in pixels (0 wide or high when the image is too small to have it). */
function passSize(header: Header, pass: Pass): { columns: number; rows: number } {
  const columns = Math.ceil((header.width - pass.x0) / pass.dx);
  const rows = Math.ceil((header.height - pass.y0) / pass.dy);
  return columns > 0 && rows > 0 ? { columns, rows } : { columns: 0, rows: 0 };
}

/** Bits a pixel takes, and bytes a row of `columns` pixels takes (without its filter byte). */
function rowBytes(header: Header, columns: number): number {
  return Math.ceil((columns * (CHANNELS[header.colorType] ?? 1) * header.depth) / 8);
}

/** The bytes the inflated data must have: each pass's rows, each with its filter byte. */
function inflatedSize(header: Header, passes: readonly Pass[]): number {
  return passes.reduce((sum, pass) => {
    const { columns, rows } = passSize(header, pass);
    return rows === 0 ? sum : sum + rows * (1 + rowBytes(header, columns));
  }, 0);
}

/** Undoes the per-row filters of one pass (`rows` rows of `stride` bytes, each after its filter byte). */
function unfilter(raw: Buffer, stride: number, rows: number, bpp: number): Uint8Array {
  const out = new Uint8Array(stride * rows);
  for (let y = 0; y < rows; y += 1) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const at = y * stride;
    for (let x = 0; x < stride; x += 1) {
      const a = x >= bpp ? (out[at + x - bpp] ?? 0) : 0;
      const b = y > 0 ? (out[at + x - stride] ?? 0) : 0;
      const c = x >= bpp && y > 0 ? (out[at + x - stride - bpp] ?? 0) : 0;
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter ?? 0];
      if (predicted === undefined) damaged('Unknown row filter.');
      out[at + x] = ((row[x] ?? 0) + predicted) & 0xff;
    }
  }
  return out;
}

/** Sample `index` of a row at the file's bit depth, as stored (0 … 2^depth − 1). */
function sampleOf(row: Uint8Array, index: number, depth: number): number {
  if (depth === 8) return row[index] ?? 0;
  if (depth === 16) return ((row[index * 2] ?? 0) << 8) | (row[index * 2 + 1] ?? 0);
  const bit = index * depth;
  const shift = 8 - depth - (bit & 7);
  return ((row[bit >> 3] ?? 0) >> shift) & ((1 << depth) - 1);
}

/** A stored sample as 8 bits: a 16-bit one's high byte, a low depth's scaled up. */
function eightBit(value: number, depth: number): number {
  if (depth === 16) return value >> 8;
  return depth === 8 ? value : Math.round((value * 255) / ((1 << depth) - 1));
}

/** One pixel's RGBA from its stored samples (`s(i)`: sample i at the file's depth). */
function rgbaOf(s: (i: number) => number, chunks: Chunks): [number, number, number, number] {
  const { colorType, depth } = chunks.header;
  const v = (i: number) => eightBit(s(i), depth);
  const trns = chunks.transparency;
  if (colorType === 3) {
    const entry = s(0);
    if (!chunks.palette || entry * 3 + 2 >= chunks.palette.length)
      damaged('A colour outside the palette.');
    const alpha = trns && entry < trns.length ? (trns[entry] ?? 255) : 255;
    const p = chunks.palette;
    return [p[entry * 3] ?? 0, p[entry * 3 + 1] ?? 0, p[entry * 3 + 2] ?? 0, alpha];
  }
  if (colorType === 0) {
    const keyed = trns && trns.length >= 2 && trns.readUInt16BE(0) === s(0);
    return [v(0), v(0), v(0), keyed ? 0 : 255];
  }
  if (colorType === 4) return [v(0), v(0), v(0), v(1)];
  if (colorType === 6) return [v(0), v(1), v(2), v(3)];
  const keyed =
    trns &&
    trns.length >= 6 &&
    trns.readUInt16BE(0) === s(0) &&
    trns.readUInt16BE(2) === s(1) &&
    trns.readUInt16BE(4) === s(2);
  return [v(0), v(1), v(2), keyed ? 0 : 255];
}

/** The inflated data, the chunks it came with, and the RGBA the passes fill. */
interface Decoding {
  readonly raw: Buffer;
  readonly chunks: Chunks;
  readonly rgba: Uint8Array;
}

/** Places one pass's pixels (the data from `offset`) into the RGBA; returns the offset after it. */
function readPass(decoding: Decoding, offset: number, pass: Pass): number {
  const { raw, chunks, rgba } = decoding;
  const { header } = chunks;
  const { columns, rows } = passSize(header, pass);
  if (rows === 0) return offset;
  const channels = CHANNELS[header.colorType] ?? 1;
  const stride = rowBytes(header, columns);
  const bpp = Math.max(1, (channels * header.depth) >> 3);
  const size = rows * (stride + 1);
  const samples = unfilter(raw.subarray(offset, offset + size), stride, rows, bpp);
  for (let y = 0; y < rows; y += 1) {
    const row = samples.subarray(y * stride, (y + 1) * stride);
    for (let x = 0; x < columns; x += 1) {
      const pixel = rgbaOf((i) => sampleOf(row, x * channels + i, header.depth), chunks);
      const at = (pass.y0 + y * pass.dy) * header.width + pass.x0 + x * pass.dx;
      rgba.set(pixel, at * 4);
    }
  }
  return offset + size;
}

/**
 * The pixels of a PNG of at most `maxPixels` pixels.
 * @throws PngDamagedError, PngUnsupportedError (see the file comment).
 */
export function decodePng(bytes: Uint8Array, maxPixels: number): Pixels {
  const chunks = readChunks(bytes, maxPixels);
  const { width, height, colorType, interlaced } = chunks.header;
  const passes = interlaced ? ADAM7 : WHOLE;
  const expected = inflatedSize(chunks.header, passes);
  let raw: Buffer;
  try {
    raw = inflateSync(chunks.data, { maxOutputLength: expected + 1 });
  } catch {
    return damaged('The image data does not inflate to the size of the image.');
  }
  if (raw.length !== expected) damaged('The image data does not inflate to the size of the image.');
  const rgba = new Uint8Array(width * height * 4);
  passes.reduce((offset, pass) => readPass({ raw, chunks, rgba }, offset, pass), 0);
  const hasAlpha = colorType === 4 || colorType === 6 || chunks.transparency !== undefined;
  return { width, height, rgba, hasAlpha };
}

/** An RGBA PNG of the pixels (no filters, fast deflate: the demo's answers are small). */
export function encodePng(pixels: Omit<Pixels, 'hasAlpha'>): Buffer {
  const { width, height, rgba } = pixels;
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1)
    raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
