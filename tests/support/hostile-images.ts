/**
 * Real images made with sharp, and the hostile ones made from them by surgery on their structure:
 * pixel bombs (a header claiming huge sizes), headers that lie about the size, truncations,
 * animations, CMYK JPEG, 16-bit PNG, EXIF orientations. Shared by the header check's tests and the
 * engines' tests, so every engine meets the same files.
 */
import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { build, chunksOf, type Chunk } from './png-chunks';

/** A photo-like test picture (smooth gradients plus detail), so codecs work as on real images. */
export function pictureRaw(width: number, height: number, channels = 3): Buffer {
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * channels;
      pixels[at] = (x * 255) / Math.max(1, width - 1);
      pixels[at + 1] = (y * 255) / Math.max(1, height - 1);
      pixels[at + 2] = ((x ^ y) * 7) & 0xff;
      if (channels === 4) pixels[at + 3] = 128 + ((x * 3) % 128);
    }
  }
  return pixels;
}

export function picture(width: number, height: number): Sharp {
  return sharp(pictureRaw(width, height), { raw: { width, height, channels: 3 } });
}

export const png = (width: number, height: number) => picture(width, height).png().toBuffer();
export const jpeg = (width: number, height: number) => picture(width, height).jpeg().toBuffer();
export const webpLossy = (width: number, height: number) =>
  picture(width, height).webp({ quality: 80 }).toBuffer();
export const webpLossless = (width: number, height: number) =>
  picture(width, height).webp({ lossless: true }).toBuffer();
/** An extended (VP8X) WebP: alpha makes libwebp write VP8X + ALPH + VP8. */
export const webpExtended = (width: number, height: number) =>
  sharp(pictureRaw(width, height, 4), { raw: { width, height, channels: 4 } })
    .webp({ quality: 80, alphaQuality: 50 })
    .toBuffer();

export const cmykJpeg = (width: number, height: number) =>
  picture(width, height).toColourspace('cmyk').jpeg().toBuffer();
export const png16 = (width: number, height: number) =>
  picture(width, height).toColourspace('rgb16').png().toBuffer();
/** A JPEG stored `width`×`height` with an EXIF orientation tag (shown turned for 5–8). */
export const orientedJpeg = (width: number, height: number, orientation: number) =>
  picture(width, height).jpeg().withMetadata({ orientation }).toBuffer();
/** A PNG stored `width`×`height` with an eXIf chunk holding an orientation tag (libvips writes it). */
export const orientedPng = (width: number, height: number, orientation: number) =>
  picture(width, height).png().withMetadata({ orientation }).toBuffer();

export async function animatedWebp(width: number, height: number, frames = 3): Promise<Buffer> {
  const each = await Promise.all(
    Array.from({ length: frames }, (_, n) =>
      sharp({ create: { width, height, channels: 3, background: { r: 40 * n, g: 90, b: 200 } } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(each, { join: { animated: true } })
    .webp({ loop: 0, delay: 100 })
    .toBuffer();
}

function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value, 0);
  return out;
}

/** An APNG: the PNG's image is also the first (and only) frame of an animation. */
export async function apng(width: number, height: number): Promise<Buffer> {
  const chunks = chunksOf(await png(width, height));
  const actl: Chunk = { type: 'acTL', data: Buffer.concat([u32(1), u32(0)]) };
  const fctl: Chunk = {
    type: 'fcTL',
    data: Buffer.concat([
      u32(0),
      u32(width),
      u32(height),
      u32(0),
      u32(0),
      Buffer.from([0, 1, 0, 1, 0, 0]),
    ]),
  };
  const first = chunks.findIndex((chunk) => chunk.type === 'IDAT');
  chunks.splice(first, 0, actl, fctl);
  return build(chunks);
}

/** The PNG with IHDR saying `width`×`height` (CRC correct): its pixel data no longer agrees. */
export function pngClaiming(source: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(source);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

/** The JPEG with its frame header saying `width`×`height`. */
export function jpegClaiming(source: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(source);
  for (let at = 2; at + 4 < out.length;) {
    const marker = out[at + 1] ?? 0;
    const length = out.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      out.writeUInt16BE(height, at + 5);
      out.writeUInt16BE(width, at + 7);
      return out;
    }
    at += 2 + length;
  }
  throw new Error('no frame header');
}

/** A VP8X WebP whose canvas says `width`×`height` (the bitstream inside keeps its own size). */
export function webpCanvasClaiming(extended: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(extended);
  if (out.toString('latin1', 12, 16) !== 'VP8X') throw new Error('not an extended WebP');
  out.writeUIntLE(width - 1, 24, 3);
  out.writeUIntLE(height - 1, 27, 3);
  return out;
}

/** A lossless WebP whose bitstream header says `width`×`height`. */
export function vp8lClaiming(lossless: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(lossless);
  if (out.toString('latin1', 12, 16) !== 'VP8L') throw new Error('not a lossless WebP');
  const bits = out.readUInt32LE(21);
  const rest = bits & ~0x0fffffff;
  out.writeUInt32LE((rest | ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14)) >>> 0, 21);
  return out;
}

/** A lone VP8X header declaring a `width`×`height` animated canvas (a pixel bomb of frames). */
export function animatedCanvasOnly(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'latin1');
  vp8x.writeUInt32LE(10, 4);
  vp8x[8] = 0x02;
  vp8x.writeUIntLE(width - 1, 12, 3);
  vp8x.writeUIntLE(height - 1, 15, 3);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + vp8x.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, vp8x]);
}

/** `bytes` cut to `share` (0–1) of its length. */
export const truncated = (bytes: Buffer, share: number): Buffer =>
  bytes.subarray(0, Math.floor(bytes.length * share));

/** `bytes` with every `step`-th byte from `from` inverted (a damaged file of the same length). */
export function flipped(bytes: Buffer, from: number, step = 97): Buffer {
  const out = Buffer.from(bytes);
  for (let at = from; at < out.length; at += step) out[at] = ~(out[at] ?? 0) & 0xff;
  return out;
}
