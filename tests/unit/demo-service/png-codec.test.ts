/**
 * The demo's PNG codec: it reads what sharp writes (greyscale, grey + alpha, RGB, RGBA, palette
 * with transparency), writes what sharp reads, and refuses damaged files (CRC, chunk order,
 * data longer than the image) and ones it does not read (16-bit) with the right error.
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  PngDamagedError,
  PngUnsupportedError,
  decodePng,
  encodePng,
} from '../../../electron/demo-service/png-codec';
import { pngChunk } from '../../../electron/core/gallery/metadata/png-meta';

const SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const raw = Buffer.from([10, 20, 30, 255, 40, 50, 60, 128, 70, 80, 90, 0, 200, 210, 220, 255]);
const rgba = () => sharp(raw, { raw: { width: 2, height: 2, channels: 4 } });

function ihdr(width: number, height: number, depth = 8, colour = 6): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = depth;
  data[9] = colour;
  return pngChunk('IHDR', data);
}

describe('png codec', () => {
  it('reads RGBA, RGB, grey and palette PNGs as sharp wrote them', async () => {
    expect(decodePng(await rgba().png().toBuffer(), 100)).toMatchObject({
      width: 2,
      height: 2,
      hasAlpha: true,
      rgba: new Uint8Array(raw),
    });
    const rgb = decodePng(await rgba().removeAlpha().png().toBuffer(), 100);
    expect([rgb.hasAlpha, [...rgb.rgba.subarray(4, 8)]]).toEqual([false, [40, 50, 60, 255]]);
    const grey = decodePng(await rgba().greyscale().removeAlpha().png().toBuffer(), 100);
    expect(grey.rgba[0]).toBe(grey.rgba[1]);
    // A palette image by hand: entry 1 is transparent through tRNS.
    const plte = pngChunk('PLTE', Buffer.from([1, 2, 3, 4, 5, 6]));
    const trns = pngChunk('tRNS', Buffer.from([255, 0]));
    const rows = pngChunk('IDAT', deflateSync(Buffer.from([0, 0, 1, 0, 0, 1])));
    const end = pngChunk('IEND', Buffer.alloc(0));
    const palette = decodePng(Buffer.concat([SIG, ihdr(2, 2, 8, 3), plte, trns, rows, end]), 100);
    expect([palette.hasAlpha, [...palette.rgba]]).toEqual([
      true,
      [1, 2, 3, 255, 4, 5, 6, 0, 1, 2, 3, 255, 4, 5, 6, 0],
    ]);
  });

  it('writes a PNG sharp reads back pixel for pixel', async () => {
    const png = encodePng({ width: 2, height: 2, rgba: new Uint8Array(raw) });
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(Buffer.from(data)).toEqual(raw);
  });

  it('refuses a wrong CRC, a first chunk that is not IHDR, and data longer than the image', async () => {
    const good = await rgba().png().toBuffer();
    const badCrc = Buffer.from(good);
    badCrc[29] = (badCrc[29] ?? 0) ^ 1;
    expect(() => decodePng(badCrc, 100)).toThrow(PngDamagedError);
    const idat = pngChunk('IDAT', deflateSync(Buffer.alloc(5)));
    expect(() => decodePng(Buffer.concat([SIG, idat, ihdr(1, 1)]), 100)).toThrow(PngDamagedError);
    const bomb = pngChunk('IDAT', deflateSync(Buffer.alloc(10_000_000)));
    const end = pngChunk('IEND', Buffer.alloc(0));
    expect(() => decodePng(Buffer.concat([SIG, ihdr(1, 1), bomb, end]), 100)).toThrow(
      PngDamagedError,
    );
  });

  it('does not read 16-bit images or more pixels than allowed (unsupported, not damaged)', async () => {
    const sixteen = await rgba().toColourspace('rgb16').png().toBuffer();
    expect(() => decodePng(sixteen, 100)).toThrow(PngUnsupportedError);
    const four = await rgba().png().toBuffer();
    expect(() => decodePng(four, 3)).toThrow(PngUnsupportedError);
  });
});
