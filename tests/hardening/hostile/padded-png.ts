/**
 * Real PNGs as large as a test wants without decoding work: a small solid picture with a private
 * chunk of padding after its header (a reader skips it; its bytes are hashed, kept and sent as any
 * image's). For the suites that send the largest inputs the contract takes.
 */
import sharp from 'sharp';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';

/** A square PNG of one shade. */
export function solidPng(side: number, shade: number): Promise<Buffer> {
  const background = { r: shade, g: shade, b: shade, alpha: 1 };
  return sharp({ create: { width: side, height: side, channels: 4, background } })
    .png()
    .toBuffer();
}

/** A square PNG of one shade, `padding` bytes (each `fill`) longer than it needs to be. */
export async function paddedPng(
  side: number,
  shade: number,
  padding: number,
  fill: number,
): Promise<Buffer> {
  const png = await solidPng(side, shade);
  // The signature (8 bytes) and IHDR (25): the padding goes right after them.
  const head = png.subarray(0, 33);
  return Buffer.concat([head, pngChunk('prVt', Buffer.alloc(padding, fill)), png.subarray(33)]);
}
