/**
 * The thumbnails the image page makes look like the picture: compared pixel by pixel with sharp's
 * Lanczos-3 reduction of the same file (what Pictor's thumbnails were before the page), and on
 * patterns that a sampler which skips source pixels turns into stripes or a flat colour. Each
 * measure is also taken of a nearest-neighbour reduction, which must fail it, so the bounds are
 * tight enough to catch a scaler that skips pixels.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { buildSvg } from '../../../electron/demo-service/image-renderer';
import type { ImageFormat } from '../../../electron/ports/image-engine';
import * as made from './image-fixtures';
import { usePageStand } from './page-setup';

const THUMBNAIL = 384;
const SIDE = 2048;
/** Mean absolute difference per channel (0–255) from sharp's Lanczos-3 that a thumbnail may show. */
const MAX_MEAN_DIFFERENCE = 2.5;
/** Standard deviation (0–255) a thumbnail of a pattern finer than its pixels may keep. */
const MAX_PATTERN_DEVIATION = 12;

let fileNumber = 0;
const page = usePageStand(40_000);

interface Raw {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

async function rgb(image: Buffer): Promise<Raw> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The page's thumbnail of `image` (a `SIDE`² PNG, JPEG or WebP), as RGB pixels. */
async function pageThumbnail(image: Buffer, format: ImageFormat = 'png'): Promise<Raw> {
  fileNumber += 1;
  const file = join(page.setup().dir, `fidelity-${fileNumber}.${format}`);
  await writeFile(file, image);
  const answer = await page.stand().engine.thumbnail({
    file,
    header: made.headerOf(format, SIDE, SIDE),
    thumbnailSize: THUMBNAIL,
  });
  if (answer.kind !== 'thumbnail') throw new Error(`no thumbnail: ${JSON.stringify(answer)}`);
  return rgb(Buffer.from(answer.webp));
}

async function reduced(image: Buffer, kernel: 'lanczos3' | 'nearest'): Promise<Raw> {
  return rgb(await sharp(image).resize(THUMBNAIL, THUMBNAIL, { kernel }).png().toBuffer());
}

function meanDifference(a: Raw, b: Raw): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 1) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

function meanAndDeviation(image: Raw): { mean: number; deviation: number } {
  const n = image.data.length;
  const mean = image.data.reduce((sum, value) => sum + value, 0) / n;
  const variance = image.data.reduce((sum, value) => sum + (value - mean) ** 2, 0) / n;
  return { mean, deviation: Math.sqrt(variance) };
}

/** A `SIDE`² PNG of 1-pixel black and white columns, or a 1-pixel checkerboard. */
async function finePattern(kind: 'columns' | 'checkerboard'): Promise<Buffer> {
  const raw = Buffer.alloc(SIDE * SIDE);
  for (let y = 0; y < SIDE; y += 1) {
    for (let x = 0; x < SIDE; x += 1) {
      const on = kind === 'columns' ? x % 2 === 0 : (x + y) % 2 === 0;
      raw[y * SIDE + x] = on ? 255 : 0;
    }
  }
  return sharp(raw, { raw: { width: SIDE, height: SIDE, channels: 1 } })
    .toColourspace('srgb')
    .png()
    .toBuffer();
}

/** `png` re-encoded as `format`, at a quality that keeps its edges and noise. */
async function as(format: ImageFormat, png: Buffer): Promise<Buffer> {
  if (format === 'png') return png;
  const image = sharp(png);
  return format === 'jpeg'
    ? image.jpeg({ quality: 92 }).toBuffer()
    : image.webp({ quality: 92 }).toBuffer();
}

/** A `SIDE`² picture with edges and text, as `format`. */
async function edgesAndText(format: ImageFormat): Promise<Buffer> {
  const svg = buildSvg({
    prompt: 'fidelity',
    width: SIDE,
    height: SIDE,
    variant: 0,
    index: 0,
    seed: 7,
  });
  return as(format, await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A `SIDE`² gradient with noise, as `format`. */
async function noiseOverGradient(format: ImageFormat): Promise<Buffer> {
  const raw = await made.photoPixels(SIDE, SIDE, 3);
  return as(format, await made.encode(raw, SIDE, SIDE, 'png'));
}

/** The page's thumbnail of `image` against sharp's Lanczos-3: mean difference per channel. */
async function fromLanczos(image: Buffer, format: ImageFormat): Promise<number> {
  return meanDifference(await pageThumbnail(image, format), await reduced(image, 'lanczos3'));
}

describe('thumbnail fidelity', () => {
  const format = 'png';
  it('a picture with edges and text: within a few levels of Lanczos-3 everywhere', async () => {
    // Flat shapes: even a sampler that skips pixels comes close here; the edges and the text
    // are where a blurred or shifted thumbnail would differ.
    expect(await fromLanczos(await edgesAndText(format), format)).toBeLessThanOrEqual(
      MAX_MEAN_DIFFERENCE,
    );
  });

  it('noise over a gradient: averaged like Lanczos-3, not kept like a sampler that skips pixels', async () => {
    const image = await noiseOverGradient(format);
    const reference = await reduced(image, 'lanczos3');
    const page = await fromLanczos(image, format);
    const nearest = meanDifference(await reduced(image, 'nearest'), reference);
    expect(page).toBeLessThanOrEqual(MAX_MEAN_DIFFERENCE);
    // The control: a reduction that skips pixels keeps the noise and is outside the bound.
    expect(nearest).toBeGreaterThan(MAX_MEAN_DIFFERENCE);
  });

  for (const kind of ['columns', 'checkerboard'] as const) {
    it(`1-pixel ${kind} become an even grey, not stripes or a flat black or white`, async () => {
      const image = await as(format, await finePattern(kind));
      const page = meanAndDeviation(await pageThumbnail(image, format));
      expect(page.mean).toBeGreaterThan(128 - 16);
      expect(page.mean).toBeLessThan(128 + 16);
      expect(page.deviation).toBeLessThanOrEqual(MAX_PATTERN_DEVIATION);
      const nearest = meanAndDeviation(await reduced(image, 'nearest'));
      const skipsPixels =
        nearest.deviation > MAX_PATTERN_DEVIATION || Math.abs(nearest.mean - 128) >= 16;
      expect(skipsPixels).toBe(true);
    });
  }
});

// A large JPEG is decoded reduced (libjpeg's M/8 scaling) before it is scaled, a WebP through its
// YUV frame: each is held to the same bound from sharp's Lanczos-3 of the same file. (The
// nearest-neighbour controls above need a lossless file: sharp itself decodes a JPEG or WebP
// reduced before it resizes, and lossy coding smooths a 1-pixel pattern before any scaler sees it.)
describe.each(['jpeg', 'webp'] as const)('thumbnail fidelity of a %s', (format) => {
  it('a picture with edges and text: within a few levels of Lanczos-3 everywhere', async () => {
    expect(await fromLanczos(await edgesAndText(format), format)).toBeLessThanOrEqual(
      MAX_MEAN_DIFFERENCE,
    );
  });

  it('noise over a gradient: within a few levels of Lanczos-3', async () => {
    expect(await fromLanczos(await noiseOverGradient(format), format)).toBeLessThanOrEqual(
      MAX_MEAN_DIFFERENCE,
    );
  });
});
