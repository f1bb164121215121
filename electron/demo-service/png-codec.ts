/**
 * A small, bounded PNG decoder and encoder for the demo's image inputs: the demo derives its edit,
 * fill, upscale and expand answers from the pixels it was given (input-pixels.ts), with no image
 * library. It reads 8-bit greyscale, grey + alpha, truecolour, truecolour + alpha and palette
 * images, not interlaced; anything else a PNG may hold (16-bit, interlaced, low bit depths) is
 * {@link PngUnsupportedError}, and the demo then draws a scene instead. A damaged file is
 * {@link PngDamagedError}: every chunk's CRC is checked, chunks must come in order, and the
 * inflated data may not be one byte longer than the image needs (zlib's maxOutputLength).
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { SIGNATURE, pngChunk } from '../core/gallery/metadata/png-meta';

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

/** A valid PNG this decoder does not read (16-bit, interlaced, under 8 bits a sample). */
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
  if (depth !== 8 || interlace !== 0) {
    throw new PngUnsupportedError('Only 8-bit, non-interlaced PNGs are read by the demo.');
  }
  if (width * height > maxPixels) throw new PngUnsupportedError('The image has too many pixels.');
  return { width, height, colorType };
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

/** Undoes the per-row filters in place; returns the unfiltered rows without filter bytes. */
function unfilter(raw: Buffer, header: Header): Uint8Array {
  const bpp = CHANNELS[header.colorType] ?? 1;
  const stride = header.width * bpp;
  const out = new Uint8Array(stride * header.height);
  for (let y = 0; y < header.height; y += 1) {
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

/** One pixel's RGBA from the unfiltered samples. */
function rgbaAt(
  samples: Uint8Array,
  index: number,
  chunks: Chunks,
): [number, number, number, number] {
  const { colorType } = chunks.header;
  const s = (offset: number) => samples[index * (CHANNELS[colorType] ?? 1) + offset] ?? 0;
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
    return [s(0), s(0), s(0), keyed ? 0 : 255];
  }
  if (colorType === 4) return [s(0), s(0), s(0), s(1)];
  if (colorType === 6) return [s(0), s(1), s(2), s(3)];
  const keyed =
    trns &&
    trns.length >= 6 &&
    trns.readUInt16BE(0) === s(0) &&
    trns.readUInt16BE(2) === s(1) &&
    trns.readUInt16BE(4) === s(2);
  return [s(0), s(1), s(2), keyed ? 0 : 255];
}

/**
 * The pixels of a PNG of at most `maxPixels` pixels.
 * @throws PngDamagedError, PngUnsupportedError (see the file comment).
 */
export function decodePng(bytes: Uint8Array, maxPixels: number): Pixels {
  const chunks = readChunks(bytes, maxPixels);
  const { width, height, colorType } = chunks.header;
  const expected = height * (1 + width * (CHANNELS[colorType] ?? 1));
  let raw: Buffer;
  try {
    raw = inflateSync(chunks.data, { maxOutputLength: expected + 1 });
  } catch {
    return damaged('The image data does not inflate to the size of the image.');
  }
  if (raw.length !== expected) damaged('The image data does not inflate to the size of the image.');
  const samples = unfilter(raw, chunks.header);
  const rgba = new Uint8Array(width * height * 4);
  for (let index = 0; index < width * height; index += 1)
    rgba.set(rgbaAt(samples, index, chunks), index * 4);
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
