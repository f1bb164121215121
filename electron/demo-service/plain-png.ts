/**
 * A demo picture the demo service can always make, with no image library: a diagonal gradient
 * between two colours, encoded as a PNG with Node's zlib. Used when the host's image engine
 * cannot draw SVG (header-only), so the demo still serves real PNGs everywhere.
 */
import { deflateSync } from 'node:zlib';
import { pngChunk as chunk } from '../core/gallery';

export type Rgb = readonly [number, number, number];

/** An RGB PNG of `width`×`height` going from `from` (top left) to `to` (bottom right). */
export function gradientPng(width: number, height: number, from: Rgb, to: Rgb): Buffer {
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height);
  const span = Math.max(1, width + height - 2);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const share = (x + y) / span;
      const at = y * stride + 1 + x * 3;
      for (let c = 0; c < 3; c += 1)
        raw[at + c] = Math.round((from[c] ?? 0) + ((to[c] ?? 0) - (from[c] ?? 0)) * share);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
