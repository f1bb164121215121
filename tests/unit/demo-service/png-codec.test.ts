/**
 * The demo's PNG codec: it reads what sharp writes (greyscale, grey + alpha, RGB, RGBA, palette
 * with transparency), at every bit depth and interlaced, pixel for pixel as sharp decodes them,
 * writes what sharp reads, and refuses damaged files (CRC, chunk order, a depth the colour type
 * does not allow, data longer than the image) and more pixels than allowed with the right error.
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

function ihdr(width: number, height: number, depth = 8, colour = 6, interlace = 0): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = depth;
  data[9] = colour;
  data[12] = interlace;
  return pngChunk('IHDR', data);
}

const idat = (rows: Buffer) => pngChunk('IDAT', deflateSync(rows));
const IEND = pngChunk('IEND', Buffer.alloc(0));

/** RGBA bytes from a seeded generator (a small LCG): the same every run. */
function noise(width: number, height: number, seed: number): Buffer {
  const out = Buffer.alloc(width * height * 4);
  let state = seed;
  for (let i = 0; i < out.length; i += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    out[i] = state >> 23;
  }
  return out;
}

/** sharp's own RGBA of a PNG, 8 bits a sample. */
async function sharpRgba(png: Buffer): Promise<Buffer> {
  return (await sharp(png).ensureAlpha().raw().toBuffer()) as Buffer;
}

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Unfiltered 16-bit RGBA rows (each sample v as v × 257), in Adam7's passes when interlaced. */
function sixteenBitRows(rgba8: Buffer, width: number, height: number, interlaced: boolean): Buffer {
  const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const rows: Buffer[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0; y < height; y += dy) {
      const xs = [];
      for (let x = x0; x < width; x += dx) xs.push(x);
      if (xs.length === 0) continue;
      const row = Buffer.alloc(1 + xs.length * 8);
      xs.forEach((x, i) => {
        for (let c = 0; c < 4; c += 1)
          row.writeUInt16BE((rgba8[(y * width + x) * 4 + c] ?? 0) * 257, 1 + i * 8 + c * 2);
      });
      rows.push(row);
    }
  }
  return Buffer.concat(rows);
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

  it('does not read more pixels than allowed (unsupported, not damaged)', async () => {
    const four = await rgba().png().toBuffer();
    expect(() => decodePng(four, 3)).toThrow(PngUnsupportedError);
  });

  it('reads Adam7-interlaced PNGs of every size a pass can leave empty, as sharp decodes them', async () => {
    for (const [width, height] of [
      [1, 1],
      [2, 3],
      [5, 1],
      [13, 11],
      [33, 17],
    ] as const) {
      const source = noise(width, height, width * 31 + height);
      const image = () => sharp(source, { raw: { width, height, channels: 4 } });
      const interlaced = await image().png({ progressive: true }).toBuffer();
      expect(interlaced[28], 'the IHDR says interlaced').toBe(1);
      expect(Buffer.from(decodePng(interlaced, 10_000).rgba), `${width}x${height}`).toEqual(source);
      const palette = await image()
        .png({ progressive: true, palette: true, colours: 4 })
        .toBuffer();
      expect(Buffer.from(decodePng(palette, 10_000).rgba)).toEqual(await sharpRgba(palette));
    }
  });

  it('reads 16-bit samples by their high byte, plain and interlaced, with a 16-bit tRNS key', () => {
    const source = noise(7, 5, 3);
    for (const interlace of [0, 1]) {
      const rows = sixteenBitRows(source, 7, 5, interlace === 1);
      const png = Buffer.concat([SIG, ihdr(7, 5, 16, 6, interlace), idat(rows), IEND]);
      expect(Buffer.from(decodePng(png, 100).rgba), `interlace ${interlace}`).toEqual(source);
    }
    // A 16-bit grey pixel equal to the tRNS key is transparent; one a single low bit off is not.
    const grey = Buffer.from([0, 0x12, 0x34, 0x12, 0x35]);
    const trns = pngChunk('tRNS', Buffer.from([0x12, 0x34]));
    const keyed = decodePng(Buffer.concat([SIG, ihdr(2, 1, 16, 0), trns, idat(grey), IEND]), 10);
    expect([...keyed.rgba]).toEqual([0x12, 0x12, 0x12, 0, 0x12, 0x12, 0x12, 255]);
  });

  it('reads 1-, 2- and 4-bit greyscale and palette samples, scaled or looked up', async () => {
    // 1-bit grey, 10 wide: 10 samples over 2 bytes (the last 6 bits padding).
    const oneBit = Buffer.from([0, 0b10110000, 0b01000000]);
    const grey1 = decodePng(Buffer.concat([SIG, ihdr(10, 1, 1, 0), idat(oneBit), IEND]), 100);
    expect([...grey1.rgba].filter((_, i) => i % 4 === 0)).toEqual([
      255, 0, 255, 255, 0, 0, 0, 0, 0, 255,
    ]);
    const twoBit = Buffer.from([0, 0b00011011]);
    const grey2 = decodePng(Buffer.concat([SIG, ihdr(4, 1, 2, 0), idat(twoBit), IEND]), 100);
    expect([...grey2.rgba].filter((_, i) => i % 4 === 0)).toEqual([0, 85, 170, 255]);
    const source = noise(9, 6, 7);
    for (const colours of [2, 4, 16]) {
      const png = await sharp(source, { raw: { width: 9, height: 6, channels: 4 } })
        .png({ palette: true, colours })
        .toBuffer();
      expect(Buffer.from(decodePng(png, 100).rgba), `${colours} colours`).toEqual(
        await sharpRgba(png),
      );
    }
  });

  it('refuses a bit depth its colour type does not allow, and an unknown interlace method', () => {
    for (const [depth, colour] of [
      [4, 2],
      [16, 3],
      [2, 6],
      [3, 0],
    ] as const) {
      const png = Buffer.concat([SIG, ihdr(1, 1, depth, colour), idat(Buffer.alloc(9)), IEND]);
      expect(() => decodePng(png, 100), `depth ${depth}, colour ${colour}`).toThrow(
        PngDamagedError,
      );
    }
    const odd = Buffer.concat([SIG, ihdr(1, 1, 8, 6, 2), idat(Buffer.alloc(5)), IEND]);
    expect(() => decodePng(odd, 100)).toThrow(PngDamagedError);
  });
});
