/**
 * Both mask PNGs read back, by the tests' own reader (png-reader.ts: signature, CRCs, zlib, rows)
 * and by sharp (libpng), at the source's exact size, odd sizes included: white is 8-bit grayscale
 * with 255 exactly where the mask covers, alpha is 8-bit RGBA, black, alpha 0 exactly there.
 * The page's CompressionStream and the stored-block fallback both make streams that read back.
 */
import { CompressionStream as NodeCompressionStream } from 'node:stream/web';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  maskPngs,
  storedDeflate,
} from '../../../../../../renderer/features/edit/mask-editor/mask-png';
import { MaskRaster } from '../../../../../../renderer/lib/mask-raster';
import { readPng } from './png-reader';

/** A 37×23 mask with a stroke, a dot in a corner, and a hole. */
function painted(width = 37, height = 23): MaskRaster {
  const raster = new MaskRaster(width, height);
  const stroke = raster.begin('brush', 5, 3, 3);
  stroke.to(30, 18);
  stroke.end();
  raster.begin('brush', 1, width - 0.5, height - 0.5).end();
  raster.begin('eraser', 1, 16.5, 10.5).end();
  return raster;
}

function expectWhite(bytes: Uint8Array, raster: MaskRaster) {
  const png = readPng(bytes);
  expect([png.width, png.height, png.bitDepth, png.colourType]).toEqual([
    raster.width,
    raster.height,
    8,
    0,
  ]);
  const expected = Uint8Array.from(raster.coverage, (value) => (value ? 255 : 0));
  expect(Buffer.from(png.samples).equals(Buffer.from(expected))).toBe(true);
  return png;
}

function expectAlpha(bytes: Uint8Array, raster: MaskRaster) {
  const png = readPng(bytes);
  expect([png.width, png.height, png.bitDepth, png.colourType]).toEqual([
    raster.width,
    raster.height,
    8,
    6,
  ]);
  const expected = new Uint8Array(raster.coverage.length * 4);
  raster.coverage.forEach((value, pixel) => {
    expected[pixel * 4 + 3] = value ? 0 : 255;
  });
  expect(Buffer.from(png.samples).equals(Buffer.from(expected))).toBe(true);
  return png;
}

describe('the mask PNGs', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('are null when nothing is painted', async () => {
    const raster = new MaskRaster(37, 23);
    expect(await maskPngs(raster.coverage, 37, 23)).toBeNull();
    raster.begin('brush', 3, 5, 5).end();
    raster.clear();
    expect(await maskPngs(raster.coverage, 37, 23)).toBeNull();
  });

  it('read back as the exact pixels at an odd size (the page deflate)', async () => {
    // jsdom has no CompressionStream; Chromium's is installed in its place, as Node's.
    vi.stubGlobal('CompressionStream', NodeCompressionStream);
    const raster = painted();
    expect(raster.covered(16, 10)).toBe(false);
    expect(raster.covered(36, 22)).toBe(true);
    const masks = await maskPngs(raster.coverage, 37, 23);
    if (!masks) throw new Error('no masks');
    const header = [0x78, 0x9c];
    expect(expectWhite(masks.white, raster).zlibHeader).toEqual(header);
    expect(expectAlpha(masks.alpha, raster).zlibHeader).toEqual(header);
  });

  it('read back in stored blocks where the page has no CompressionStream', async () => {
    // A worker thread has Node's (a VM context's jsdom had none).
    vi.stubGlobal('CompressionStream', undefined);
    expect(typeof CompressionStream).toBe('undefined');
    const raster = painted();
    const masks = await maskPngs(raster.coverage, 37, 23);
    if (!masks) throw new Error('no masks');
    expect(expectWhite(masks.white, raster).zlibHeader).toEqual([0x78, 0x01]);
    expect(expectAlpha(masks.alpha, raster).zlibHeader).toEqual([0x78, 0x01]);
  });

  it('read back in stored deflate blocks, over several blocks', async () => {
    const raster = painted(301, 229);
    const masks = await maskPngs(raster.coverage, 301, 229, storedDeflate);
    if (!masks) throw new Error('no masks');
    expect(expectWhite(masks.white, raster).zlibHeader).toEqual([0x78, 0x01]);
    // 301 × 229 RGBA rows are 276,000 bytes: five stored blocks.
    expect(expectAlpha(masks.alpha, raster).zlibHeader).toEqual([0x78, 0x01]);
  });

  it('hold an empty stream as one stored block', async () => {
    const stream = await storedDeflate(new Uint8Array(0));
    expect([...stream]).toEqual([0x78, 0x01, 1, 0, 0, 0xff, 0xff, 0, 0, 0, 1]);
  });

  it('are read by libpng (sharp) as the same pixels, compressed or stored', async () => {
    vi.stubGlobal('CompressionStream', NodeCompressionStream);
    const raster = painted();
    for (const deflate of [undefined, storedDeflate]) {
      const masks = await maskPngs(raster.coverage, 37, 23, deflate);
      if (!masks) throw new Error('no masks');
      const about = await sharp(masks.white).metadata();
      expect([about.width, about.height, about.channels, about.depth]).toEqual([
        37,
        23,
        1,
        'uchar',
      ]);
      const white = await sharp(masks.white)
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([white.info.width, white.info.height, white.info.channels]).toEqual([37, 23, 1]);
      expect([...white.data]).toEqual(Array.from(raster.coverage, (value) => (value ? 255 : 0)));
      const alpha = await sharp(masks.alpha).raw().toBuffer({ resolveWithObject: true });
      expect([alpha.info.width, alpha.info.height, alpha.info.channels]).toEqual([37, 23, 4]);
      const alphas = [...alpha.data].filter((_, index) => index % 4 === 3);
      expect(alphas).toEqual(Array.from(raster.coverage, (value) => (value ? 0 : 255)));
      expect([...alpha.data].filter((_, index) => index % 4 !== 3).every((v) => v === 0)).toBe(
        true,
      );
    }
  });
});
