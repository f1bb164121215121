/** The image rows' pictures: photo-like PNGs (and the same as JPEG or WebP) as a service sends them. */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { buildSvg } from '../../../electron/demo-service/image-renderer';

/**
 * A photo-like `side`² PNG: the demo service's art with ±6 of noise per channel, so it compresses
 * like a generated picture (several MB at 2048²) rather than like flat shapes.
 */
export async function photoLikePng(n: number, side: number): Promise<Buffer> {
  const svg = buildSvg({
    prompt: `pipeline ${n}`,
    width: side,
    height: side,
    variant: 0,
    index: 0,
    seed: n,
  });
  const raw = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const noise = randomBytes(raw.length);
  for (let i = 0; i < raw.length; i += 1) {
    raw[i] = Math.max(0, Math.min(255, (raw[i] ?? 0) + ((noise[i] ?? 0) % 13) - 6));
  }
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

/** The formats the image rows are measured on. */
export type PhotoFormat = 'png' | 'jpeg' | 'webp';

/** {@link photoLikePng} as `format`: JPEG and WebP at quality 90, as services send photos. */
export async function photoLike(n: number, side: number, format: PhotoFormat): Promise<Buffer> {
  const png = await photoLikePng(n, side);
  if (format === 'png') return png;
  const image = sharp(png);
  return format === 'jpeg'
    ? image.jpeg({ quality: 90 }).toBuffer()
    : image.webp({ quality: 90 }).toBuffer();
}
