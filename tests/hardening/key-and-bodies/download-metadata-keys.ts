/**
 * Images a hostile image host serves with the user's key in their own metadata, where each format
 * keeps text: a PNG tEXt, zTXt or compressed iTXt chunk, a JPEG comment or XMP (APP1) segment, a
 * WebP chunk of its own or its XMP chunk beside EXIF (VP8X). Real files, made with sharp.
 */
import { deflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';
import type { ImageKind } from '../../../electron/core/images';

/** The bytes of a text an encoding made: Latin-1 when it fits (a UTF-16 one is bytes already). */
export const bytesOf = (text: string) =>
  Buffer.from(text, [...text].some((c) => c.charCodeAt(0) > 0xff) ? 'utf8' : 'latin1');

/** A PNG with `chunk` before its IEND. */
export function withPngChunk(png: Buffer, chunk: Buffer): Buffer {
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

/** A JPEG with a `marker` segment holding `body` right after its SOI. */
export function withJpegSegment(jpeg: Buffer, marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

/** A WebP with a `type` chunk holding `body` at its end, the RIFF size made again. */
export function withWebpChunk(webp: Buffer, type: string, body: Buffer): Buffer {
  const head = Buffer.from(`${type}\0\0\0\0`, 'latin1');
  head.writeUInt32LE(body.length, 4);
  const padded = body.length % 2 ? Buffer.concat([body, Buffer.alloc(1)]) : body;
  const whole = Buffer.concat([webp, head, padded]);
  whole.writeUInt32LE(whole.length - 8, 4);
  return whole;
}

export interface Plain {
  readonly png: Buffer;
  readonly jpeg: Buffer;
  readonly webp: Buffer;
  /** A WebP with a VP8X header and an EXIF chunk (the flag set). */
  readonly webpExif: Buffer;
}

export async function plainImages(): Promise<Plain> {
  const raw = { raw: { width: 40, height: 30, channels: 3 as const } };
  const pixels = randomBytes(40 * 30 * 3);
  return {
    png: await sharp(pixels, raw).png().toBuffer(),
    jpeg: await sharp(pixels, raw).jpeg().toBuffer(),
    webp: await sharp(pixels, raw).webp().toBuffer(),
    webpExif: await sharp(pixels, raw)
      .withExif({ IFD0: { Copyright: 'ordinary' } })
      .webp()
      .toBuffer(),
  };
}

const XMP_NS = 'http://ns.adobe.com/xap/1.0/\0';
const xmp = (text: Buffer) =>
  Buffer.concat([Buffer.from('<x:xmpmeta><rdf:Description dc:note="'), text, Buffer.from('"/>')]);

/** The WebP with an XMP chunk holding `text`, its VP8X's XMP flag set. */
function withWebpXmp(webp: Buffer, text: Buffer): Buffer {
  const out = withWebpChunk(webp, 'XMP ', xmp(text));
  if (out.toString('latin1', 12, 16) === 'VP8X') out[20] = (out[20] ?? 0) | 0x04;
  return out;
}

/** Each carrier of the key, as it says `said`. */
export function keyedImages(
  plain: Plain,
  said: string,
): Record<string, { kind: ImageKind; bytes: Buffer }> {
  const text = bytesOf(said);
  const comment = Buffer.from('Comment\0');
  return {
    'PNG tEXt': {
      kind: 'png',
      bytes: withPngChunk(plain.png, pngChunk('tEXt', Buffer.concat([comment, text]))),
    },
    'PNG zTXt': {
      kind: 'png',
      bytes: withPngChunk(
        plain.png,
        pngChunk('zTXt', Buffer.concat([comment, Buffer.from([0]), deflateSync(text)])),
      ),
    },
    'PNG iTXt (compressed)': {
      kind: 'png',
      bytes: withPngChunk(
        plain.png,
        pngChunk('iTXt', Buffer.concat([comment, Buffer.from([1, 0, 0, 0]), deflateSync(text)])),
      ),
    },
    'JPEG comment': { kind: 'jpeg', bytes: withJpegSegment(plain.jpeg, 0xfe, text) },
    'JPEG XMP (APP1)': {
      kind: 'jpeg',
      bytes: withJpegSegment(plain.jpeg, 0xe1, Buffer.concat([Buffer.from(XMP_NS), xmp(text)])),
    },
    'WebP chunk of its own': { kind: 'webp', bytes: withWebpChunk(plain.webp, 'NOTE', text) },
    'WebP XMP beside EXIF (VP8X)': { kind: 'webp', bytes: withWebpXmp(plain.webpExif, text) },
  };
}

/** A palette PNG whose palette (a critical chunk: no image without it) spells `text`. */
export function paletteSpelling(text: Buffer): Buffer {
  const entries = Math.min(256, Math.ceil(text.length / 3));
  const palette = Buffer.alloc(entries * 3);
  text.copy(palette, 0, 0, palette.length);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4, 0);
  ihdr.writeUInt32BE(4, 4);
  ihdr.set([8, 3, 0, 0, 0], 8);
  const rows = Buffer.alloc(4 * 5);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('PLTE', palette),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
