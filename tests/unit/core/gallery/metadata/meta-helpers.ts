/**
 * What the image-metadata tests share: real images made by sharp, their decoded pixels, a
 * provenance to embed (exiftool, the independent reader, is tests/support/exiftool.ts).
 */
import { randomBytes } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import type { ImageKind } from '../../../../../electron/core/images/image-sniff';
import type { ImageProvenance } from '../../../../../electron/core/gallery/metadata/xmp-packet';

/** One way to encode a test image; `kind` is what the gallery calls its format. */
export interface Encoding {
  readonly name: string;
  readonly kind: ImageKind;
  readonly encode: (image: Sharp) => Sharp;
}

export const ENCODINGS: readonly Encoding[] = [
  { name: 'PNG', kind: 'png', encode: (image) => image.png() },
  { name: 'JPEG', kind: 'jpeg', encode: (image) => image.jpeg({ quality: 80 }) },
  { name: 'WebP lossy', kind: 'webp', encode: (image) => image.webp({ quality: 70 }) },
  { name: 'WebP lossless', kind: 'webp', encode: (image) => image.webp({ lossless: true }) },
];

/** A real image of random pixels, with an alpha channel when `alpha` (sharp encodes it). */
export async function makeEncoded(
  encoding: Encoding,
  width: number,
  height: number,
  alpha = false,
): Promise<Buffer> {
  const channels = alpha ? 4 : 3;
  const pixels = randomBytes(width * height * channels);
  return encoding.encode(sharp(pixels, { raw: { width, height, channels } })).toBuffer();
}

/** The decoded pixels (RGBA, so every file compares the same way) and their size. */
export async function decodedPixels(
  bytes: Buffer,
): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export function sampleProvenance(overrides: Partial<ImageProvenance> = {}): ImageProvenance {
  return {
    prompt: 'A lighthouse at dusk, oil painting',
    model: 'gpt-image-1',
    size: '1024x1024',
    quality: 'high',
    taskId: 'task-0123',
    localId: 'a1b2c3d4-0000-4000-8000-000000000001',
    imageIndex: 0,
    service: 'https://images.example.com:8443',
    createdAt: Date.UTC(2026, 10, 23, 7, 30, 5),
    appVersion: '9.8.7',
    ...overrides,
  };
}
