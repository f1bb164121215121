/**
 * Real images for the image renderer's page, made by sharp, and the broken and hostile files the
 * page must refuse or thumbnail correctly, each made from a real one by the same surgery an
 * attacker would do. Each comes with the header the core's check would hand the engine: what
 * the file's own header declares (for a crafted header, the lie itself).
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { ImageFormat, ImageHeaderInfo } from '../../../electron/ports/image-engine';
import { build, chunksOf } from '../../support/png-chunks';

export interface Fixture {
  readonly name: string;
  readonly bytes: Buffer;
  readonly header: ImageHeaderInfo;
}

export function headerOf(
  format: ImageFormat,
  width: number,
  height: number,
  orientation = 1,
): ImageHeaderInfo {
  const turned = orientation >= 5;
  return {
    format,
    width,
    height,
    orientation,
    orientedWidth: turned ? height : width,
    orientedHeight: turned ? width : height,
  };
}

/**
 * Photo-like pixels: a gradient with noise, so files compress like pictures, not flat colour.
 * The noise is seeded: the same size gives the same bytes on every run, so a damaged file is
 * damaged the same way each time.
 */
export async function photoPixels(width: number, height: number, seed = 1): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let state = (seed * 2_654_435_761) >>> 0;
  for (let i = 0; i < raw.length; i += 1) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    const pixel = Math.floor(i / 3);
    const x = pixel % width;
    const y = Math.floor(pixel / width);
    const base = (((x + y * (i % 3)) * 255) / (width + height)) | 0;
    raw[i] = Math.max(0, Math.min(255, base + (state >>> 27) - 16));
  }
  return raw;
}

export async function encode(
  raw: Buffer,
  width: number,
  height: number,
  format: ImageFormat,
): Promise<Buffer> {
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  if (format === 'png') return image.png().toBuffer();
  if (format === 'jpeg') return image.jpeg({ quality: 85 }).toBuffer();
  return image.webp({ quality: 80 }).toBuffer();
}

/** The same file with `count` bytes inverted from `at`. */
export function flippedAt(bytes: Buffer, at: number, count: number): Buffer {
  const copy = Buffer.from(bytes);
  for (let i = at; i < at + count && i < copy.length; i += 1) copy[i] = (copy[i] ?? 0) ^ 0xff;
  return copy;
}

/** The same file with a run of 64 inverted bytes at 40 %, past any header. */
export function flipped(bytes: Buffer): Buffer {
  return flippedAt(bytes, Math.floor(bytes.length * 0.4), 64);
}

/** Each format cut at 60 % and 100 bytes short. */
export async function truncatedFiles(width: number, height: number): Promise<Fixture[]> {
  const raw = await photoPixels(width, height);
  const fixtures: Fixture[] = [];
  for (const format of ['png', 'jpeg', 'webp'] as const) {
    const whole = await encode(raw, width, height, format);
    const header = headerOf(format, width, height);
    const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
    fixtures.push(
      { name: `${format} cut at 60 %`, bytes: cut, header },
      { name: `${format} 100 bytes short`, bytes: whole.subarray(0, whole.length - 100), header },
    );
  }
  return fixtures;
}

/** Offset of the first JPEG segment with `marker`, walking the segments from SOI. */
function segmentAt(jpeg: Buffer, marker: number): number {
  for (let at = 2; at + 4 <= jpeg.length; at += 2 + jpeg.readUInt16BE(at + 2)) {
    if (jpeg[at + 1] === marker) return at;
  }
  throw new Error(`no marker ${marker.toString(16)}`);
}

/** The JPEG with a Huffman table whose code counts add up to far more codes than exist. */
export function bogusHuffmanJpeg(jpeg: Buffer, header: ImageHeaderInfo): Fixture {
  const bytes = Buffer.from(jpeg);
  const table = segmentAt(bytes, 0xc4);
  bytes.fill(0xff, table + 5, table + 5 + 16);
  return { name: 'jpeg with a bogus Huffman table', bytes, header };
}

/** A JPEG whose entropy-coded data ends early in an end-of-image marker (a corrupted download). */
export async function corruptedJpeg(width: number, height: number): Promise<Fixture> {
  const whole = await encode(await photoPixels(width, height), width, height, 'jpeg');
  const cut = Math.floor(whole.length * 0.5);
  const bytes = Buffer.concat([whole.subarray(0, cut), Buffer.from([0xff, 0xd9])]);
  return {
    name: 'jpeg with an early end-of-image marker',
    bytes,
    header: headerOf('jpeg', width, height),
  };
}

/** A PNG whose IHDR declares `width`×`height`, with the IDAT of a real tiny image. */
export async function pngDeclaring(width: number, height: number, from?: Buffer): Promise<Buffer> {
  const source = from ?? (await encode(await photoPixels(8, 8), 8, 8, 'png'));
  const chunks = chunksOf(source);
  const ihdr = chunks.find((chunk) => chunk.type === 'IHDR')!;
  const data = Buffer.from(ihdr.data);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  ihdr.data = data;
  return build(chunks);
}

/** A grey PNG of `width`×`height` whose IDAT inflates to `inflatedBytes` zeros. */
export function zlibBombPng(width: number, height: number, inflatedBytes: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const idat = deflateSync(Buffer.alloc(inflatedBytes), { level: 9 });
  return build([
    { type: 'IHDR', data: ihdr },
    { type: 'IDAT', data: idat },
    { type: 'IEND', data: Buffer.alloc(0) },
  ]);
}

/** A baseline JPEG whose SOF declares `width`×`height` (its scan is a tiny image's). */
export async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await encode(await photoPixels(8, 8), 8, 8, 'jpeg'));
  const frame = segmentAt(bytes, 0xc0);
  bytes.writeUInt16BE(height, frame + 5);
  bytes.writeUInt16BE(width, frame + 7);
  return bytes;
}

/** A WebP whose VP8X chunk declares a canvas of `width`×`height`. */
export function webpDeclaring(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const chunk = Buffer.concat([Buffer.from('VP8X'), Buffer.from([10, 0, 0, 0]), vp8x]);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, chunk]);
}

/** Two frames of `width`×`height`, red then blue, as an animated WebP. */
export async function animatedWebp(width: number, height: number): Promise<Buffer> {
  const frame = (colour: string) =>
    sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return sharp([await frame('#ff0000'), await frame('#0000ff')], { join: { animated: true } })
    .webp({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

export async function cmykJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(await photoPixels(width, height), { raw: { width, height, channels: 3 } })
    .toColourspace('cmyk')
    .jpeg()
    .toBuffer();
}

export async function sixteenBitPng(width: number, height: number): Promise<Buffer> {
  return sharp(await photoPixels(width, height), { raw: { width, height, channels: 3 } })
    .toColourspace('rgb16')
    .png()
    .toBuffer();
}

/** Stored `width`×`height`: its left half red and its right half blue. */
function halvesRaw(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    raw[pixel * 3 + (pixel % width < width / 2 ? 0 : 2)] = 255;
  }
  return raw;
}

/**
 * A JPEG stored `width`×`height`, its left half red and its right half blue, that EXIF orientation
 * 6 turns a quarter clockwise: shown, its top half is red.
 */
export async function rotatedJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(halvesRaw(width, height), { raw: { width, height, channels: 3 } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** The same as a PNG: its eXIf chunk holds orientation 6. */
export async function rotatedPng(width: number, height: number): Promise<Buffer> {
  return sharp(halvesRaw(width, height), { raw: { width, height, channels: 3 } })
    .png()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
