/**
 * The hostile image bodies the hardening suites serve, as raw replies: each with what the gallery must say
 * about it. Built once per suite (the real bomb and the good PNG are made here, not stored).
 */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { RawReply } from './raw-hosts';
import { pngClaiming } from '../../support/hostile-images';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';

/** The gallery's default cap (GalleryOptions.maxImageBytes), which openPictorCore uses. */
export const DEFAULT_CAP = 64 * 1024 * 1024;

export interface HostileCase {
  readonly name: string;
  readonly reply: () => RawReply;
  /** `invalid`: refused for good; `retry`: a transfer that broke, tried again, never saved. */
  readonly state: 'invalid' | 'retry';
  readonly error: RegExp;
}

/**
 * A real, decodable 1-bit greyscale PNG of `width`×`height` black pixels: a few KB on the wire,
 * `width`×`height` pixels once decoded.
 */
export function realBombPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PNG of random pixels (so it does not compress away). */
export async function randomPng(width: number, height: number): Promise<Buffer> {
  const pixels = randomBytes(width * height * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

function exact(body: Buffer, type = 'image/png'): RawReply {
  return { headers: { 'Content-Type': type, 'Content-Length': String(body.length) }, body: [body] };
}

/** `total` bytes starting with a PNG signature, in 1 MiB chunks made as they are sent. */
function* pngShapedBytes(total: number): Generator<Buffer> {
  const piece = Buffer.alloc(1024 * 1024);
  piece.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let sent = 0; sent < total; sent += piece.length) {
    yield piece.subarray(0, Math.min(piece.length, total - sent));
    piece.fill(0, 0, 8);
  }
}

const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000">' +
  '<script>alert(1)</script><rect width="100%" height="100%"/></svg>';
const HTML = '<!DOCTYPE html><html><head><title>404</title></head><body>Not found</body></html>';

/** Every hostile body, with the good PNG the tests also serve (for the polyglots). */
export async function hostileCases(): Promise<HostileCase[]> {
  const png = await randomPng(200, 150);
  const gif = await sharp(await randomPng(16, 16))
    .gif()
    .toBuffer();
  const riffGif = Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.alloc(4),
    Buffer.from('WEBPVP8 '),
    gif,
  ]);
  riffGif.writeUInt32LE(riffGif.length - 8, 4);
  const over = DEFAULT_CAP + 1024 * 1024;
  return [
    {
      name: 'HTML served as image/png',
      reply: () => exact(Buffer.from(HTML)),
      state: 'invalid',
      error: /sent an HTML page instead of/,
    },
    {
      name: 'SVG as image/svg+xml',
      reply: () => exact(Buffer.from(SVG), 'image/svg+xml'),
      state: 'invalid',
      error: /sent an SVG instead of/,
    },
    {
      name: 'SVG as image/png',
      reply: () => exact(Buffer.from(SVG)),
      state: 'invalid',
      error: /sent an SVG instead of/,
    },
    {
      name: 'zero bytes',
      reply: () => exact(Buffer.alloc(0)),
      state: 'invalid',
      error: /sent an empty file/,
    },
    {
      name: 'truncated PNG (60%)',
      reply: () => exact(png.subarray(0, Math.floor(png.length * 0.6))),
      state: 'invalid',
      error: /damaged or incomplete/,
    },
    {
      name: 'larger than the cap, declared by Content-Length',
      reply: () => ({
        headers: { 'Content-Type': 'image/png', 'Content-Length': String(over) },
        body: pngShapedBytes(over),
      }),
      state: 'invalid',
      error: /larger than the 64 MiB Pictor accepts/,
    },
    {
      name: 'larger than the cap, no Content-Length (read until close)',
      reply: () => ({ headers: { 'Content-Type': 'image/png' }, body: pngShapedBytes(over) }),
      state: 'invalid',
      error: /larger than the 64 MiB Pictor accepts/,
    },
    {
      name: 'Content-Length claims less than sent',
      reply: () => ({
        headers: {
          'Content-Type': 'image/png',
          'Content-Length': String(Math.floor(png.length / 2)),
        },
        body: [png],
      }),
      state: 'invalid',
      error: /damaged or incomplete/,
    },
    {
      name: 'Content-Length claims more than sent, then closes',
      reply: () => ({
        headers: { 'Content-Type': 'image/png', 'Content-Length': String(png.length + 5000) },
        body: [png],
      }),
      state: 'retry',
      error: /could not be downloaded: the connection (dropped|ended)/,
    },
    {
      name: 'bomb: PNG header claiming 100000×100000',
      reply: () => exact(pngClaiming(png, 100_000, 100_000)),
      state: 'invalid',
      error: /claims to be 100000×100000 pixels, more than the 100,000,000/,
    },
    {
      name: 'bomb: real 1-bit PNG of 10500×10000',
      reply: () => exact(realBombPng(10_500, 10_000)),
      state: 'invalid',
      error: /claims to be 10500×10000 pixels/,
    },
    {
      name: 'GIF served as image/webp',
      reply: () => exact(gif, 'image/webp'),
      state: 'invalid',
      error: /sent a GIF instead of/,
    },
    {
      name: 'polyglot: RIFF/WEBP header around a GIF',
      reply: () => exact(riffGif, 'image/webp'),
      state: 'invalid',
      error: /damaged/,
    },
    {
      name: 'polyglot: PNG signature then HTML',
      reply: () => exact(Buffer.concat([png.subarray(0, 8), Buffer.from(HTML)])),
      state: 'invalid',
      error: /damaged/,
    },
  ];
}
