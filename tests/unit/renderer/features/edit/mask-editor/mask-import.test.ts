/**
 * A mask file read into coverage: refused with its reason when its size is not the source's
 * (before its pixels are read), when it does not decode, or when it is too large to be an input;
 * read in either convention (white on black, alpha 0 = edit). The round trip uses real PNG bytes:
 * the editor's own exports, decoded by sharp in place of the page's decoder.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from '../../../../../../shared/domain/image-inputs';
import {
  importMask,
  type DecodedMask,
  type MaskDecoder,
} from '../../../../../../renderer/features/edit/mask-editor/mask-import';
import { maskPngs } from '../../../../../../renderer/features/edit/mask-editor/mask-png';
import { MaskRaster } from '../../../../../../renderer/lib/mask-raster';

/** Decodes with sharp (libvips), as RGBA, the way the page's decoder answers. */
const sharpDecoder: MaskDecoder = async (file) => {
  const { data, info } = await sharp(new Uint8Array(await file.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    rgba: () => new Uint8ClampedArray(data),
    close: () => {},
  };
};

/** A decoder of fixed pixels that counts what is asked of it. */
function fixed(width: number, height: number, rgba: number[]) {
  const asked = { pixels: 0, closed: 0 };
  const image: DecodedMask = {
    width,
    height,
    rgba: () => {
      asked.pixels += 1;
      return Uint8ClampedArray.from(rgba);
    },
    close: () => {
      asked.closed += 1;
    },
  };
  return { decode: () => Promise.resolve(image), asked };
}

const file = new Blob([new Uint8Array([1, 2, 3])]);

describe('importing a mask', () => {
  it('refuses another size without reading its pixels', async () => {
    const { decode, asked } = fixed(38, 23, []);
    expect(await importMask(file, { width: 37, height: 23 }, decode)).toEqual({
      ok: false,
      refusal: { reason: 'size', maskWidth: 38, maskHeight: 23 },
    });
    expect(asked).toEqual({ pixels: 0, closed: 1 });
  });

  it('refuses a file that does not decode, and one too large to be an input', async () => {
    const failing: MaskDecoder = () => Promise.reject(new Error('not an image'));
    expect(await importMask(file, { width: 1, height: 1 }, failing)).toEqual({
      ok: false,
      refusal: { reason: 'unreadable' },
    });
    const huge = { size: MAX_INPUT_BYTES + 1 } as Blob;
    const { decode, asked } = fixed(1, 1, [255, 255, 255, 255]);
    expect(await importMask(huge, { width: 1, height: 1 }, decode)).toEqual({
      ok: false,
      refusal: { reason: 'tooLarge' },
    });
    expect(asked.closed).toBe(0);
  });

  it('reads an opaque mask by luminance: above 127 is edit', async () => {
    const { decode, asked } = fixed(4, 1, [
      ...[127, 127, 127, 255],
      ...[128, 128, 128, 255],
      ...[255, 0, 0, 255], // luminance 76: kept
      ...[0, 255, 0, 255], // luminance 150: edit
    ]);
    expect(await importMask(file, { width: 4, height: 1 }, decode)).toEqual({
      ok: true,
      coverage: Uint8Array.from([0, 255, 0, 255]),
    });
    expect(asked).toEqual({ pixels: 1, closed: 1 });
  });

  it('reads a mask with transparency by its alpha: 0 is edit, whatever the colour', async () => {
    const { decode } = fixed(3, 1, [
      ...[255, 255, 255, 255],
      ...[0, 0, 0, 0],
      ...[255, 255, 255, 1],
    ]);
    expect(await importMask(file, { width: 3, height: 1 }, decode)).toEqual({
      ok: true,
      coverage: Uint8Array.from([0, 255, 0]),
    });
  });

  it('reads back both of its own PNGs as the coverage they came from', async () => {
    const raster = new MaskRaster(37, 23);
    const stroke = raster.begin('brush', 7, 2, 20);
    stroke.to(35, 4);
    stroke.end();
    const masks = await maskPngs(raster.coverage, 37, 23);
    if (!masks) throw new Error('no masks');
    for (const png of [masks.white, masks.alpha]) {
      const read = await importMask(
        new Blob([png as Uint8Array<ArrayBuffer>]),
        raster,
        sharpDecoder,
      );
      if (!read.ok) throw new Error(`refused: ${read.refusal.reason}`);
      expect(Buffer.from(read.coverage).equals(Buffer.from(raster.coverage))).toBe(true);
    }
  });

  it('refuses its own PNG for a source of another size', async () => {
    const raster = new MaskRaster(37, 23);
    raster.begin('brush', 3, 5, 5).end();
    const masks = await maskPngs(raster.coverage, 37, 23);
    if (!masks) throw new Error('no masks');
    const read = await importMask(
      new Blob([masks.white as Uint8Array<ArrayBuffer>]),
      { width: 23, height: 37 },
      sharpDecoder,
    );
    expect(read).toEqual({ ok: false, refusal: { reason: 'size', maskWidth: 37, maskHeight: 23 } });
  });
});
