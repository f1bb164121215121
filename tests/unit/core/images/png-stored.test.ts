/**
 * storedPng (electron/core/images/png-stored.ts): for every kind of PNG (each colour type and bit
 * depth, interlaced or not, with ancillary chunks) the re-packed file decodes to the very same
 * pixels; for anything that is not a plain, intact PNG it returns null, so sharp judges the
 * original. Images are real PNGs made by (native) sharp; pixels are compared as raw buffers.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inflatedSize, storedPng } from '../../../../electron/core/images/png-stored';
import { build, chunksOf, idatOf, withIdat } from './png-chunks';

const LIMIT = 100_000_000;

function noise(width: number, height: number, channels: 1 | 2 | 3 | 4, seed = 7): Buffer {
  const bytes = Buffer.alloc(width * height * channels);
  let state = seed;
  for (let i = 0; i < bytes.length; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = (state >>> 16) & 0xff;
  }
  return bytes;
}

interface Variant {
  readonly name: string;
  make(): Promise<Buffer>;
}

const raw = (width: number, height: number, channels: 1 | 2 | 3 | 4) =>
  sharp(noise(width, height, channels), { raw: { width, height, channels } });

const VARIANTS: Variant[] = [
  { name: 'RGB 8-bit', make: () => raw(97, 61, 3).png().toBuffer() },
  { name: 'RGBA 8-bit', make: () => raw(64, 33, 4).png().toBuffer() },
  { name: 'grey 8-bit', make: () => raw(50, 50, 1).png().toBuffer() },
  { name: 'grey + alpha', make: () => raw(31, 17, 2).png().toBuffer() },
  { name: 'RGB 16-bit', make: () => raw(40, 23, 3).toColourspace('rgb16').png().toBuffer() },
  { name: 'palette', make: () => raw(45, 29, 3).png({ palette: true, colours: 16 }).toBuffer() },
  {
    name: 'palette 1-bit',
    make: () => raw(45, 29, 3).png({ palette: true, colours: 2 }).toBuffer(),
  },
  { name: 'interlaced RGB', make: () => raw(53, 37, 3).png({ progressive: true }).toBuffer() },
  {
    name: 'interlaced 1×1',
    make: () => raw(1, 1, 3).png({ progressive: true }).toBuffer(),
  },
  {
    name: 'with EXIF and ICC chunks',
    make: () =>
      raw(30, 20, 3)
        .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'x' } } })
        .png()
        .toBuffer(),
  },
];

async function pixels(png: Buffer): Promise<Buffer> {
  return sharp(png).raw().toBuffer();
}

describe('storedPng', () => {
  it.each(VARIANTS)('re-packs a $name PNG that decodes to the same pixels', async (variant) => {
    const png = await variant.make();
    const stored = storedPng(png, LIMIT);
    expect(stored).not.toBeNull();
    if (!stored) return;
    expect((await pixels(stored)).equals(await pixels(png))).toBe(true);
    expect(await sharp(stored).metadata()).toMatchObject(
      await sharp(png)
        .metadata()
        .then(({ width, height, channels, depth, isProgressive, orientation }) => ({
          width,
          height,
          channels,
          depth,
          isProgressive,
          ...(orientation ? { orientation } : {}),
        })),
    );
    // Every IDAT of the result holds stored deflate blocks (BTYPE 00), at most 1 MiB each.
    const idat = chunksOf(stored).filter((chunk) => chunk.type === 'IDAT');
    expect(idat.every((chunk) => chunk.data.length <= 1024 * 1024)).toBe(true);
    const stream = Buffer.concat(idat.map((chunk) => chunk.data));
    expect((stream[2] ?? 0xff) & 0b110).toBe(0);
  });

  it('re-packs a stream cut into many IDAT chunks, its checksum split over the last two', async () => {
    const png = await raw(70, 40, 4).png().toBuffer();
    const stream = idatOf(png);
    const cuts = [0, 1, 5, 300, stream.length - 2, stream.length];
    const chunks = chunksOf(png).filter((chunk) => chunk.type !== 'IDAT');
    const idat = cuts
      .slice(1)
      .map((end, n) => ({ type: 'IDAT', data: stream.subarray(cuts[n], end) }));
    chunks.splice(chunks.length - 1, 0, ...idat);
    const split = build(chunks);
    expect(chunksOf(split).filter((chunk) => chunk.type === 'IDAT')).toHaveLength(5);
    const stored = storedPng(split, LIMIT);
    expect(stored).not.toBeNull();
    expect((await pixels(stored ?? Buffer.alloc(0))).equals(await pixels(png))).toBe(true);
  });

  it('refuses an interlaced image with a bad filter type in its last pass', async () => {
    const png = await raw(53, 37, 3).png({ progressive: true }).toBuffer();
    const stream = inflateSync(idatOf(png));
    // Adam7's seventh pass is the last 18 rows of 1 + 53 × 3 bytes each.
    stream[stream.length - (1 + 53 * 3)] = 7;
    expect(storedPng(withIdat(png, deflateSync(stream)), LIMIT)).toBeNull();
    stream[stream.length - (1 + 53 * 3)] = 4;
    expect(storedPng(withIdat(png, deflateSync(stream)), LIMIT)).not.toBeNull();
  });

  it('splits a large stream into 1 MiB IDAT chunks', async () => {
    const png = await raw(800, 600, 3).png().toBuffer();
    const stored = storedPng(png, LIMIT);
    const idat = chunksOf(stored ?? Buffer.alloc(0)).filter((chunk) => chunk.type === 'IDAT');
    const stream = Buffer.concat(idat.map((chunk) => chunk.data));
    expect(idat.length).toBeGreaterThan(1);
    expect(idat.length).toBe(Math.ceil(stream.length / (1024 * 1024)));
    expect((await pixels(stored ?? Buffer.alloc(0))).equals(await pixels(png))).toBe(true);
  });

  it('computes the inflated size of interlaced images pass by pass', () => {
    // 8×8 RGB 8-bit, Adam7: passes of 1×1, 1×1, 2×1, 2×2, 4×2, 4×4, 8×4 pixels.
    const rows = [
      [1, 1],
      [1, 1],
      [2, 1],
      [2, 2],
      [4, 2],
      [4, 4],
      [8, 4],
    ].reduce((total, [width = 0, height = 0]) => total + height * (1 + width * 3), 0);
    expect(inflatedSize({ width: 8, height: 8, bitsPerPixel: 24, interlaced: true })).toBe(rows);
    expect(inflatedSize({ width: 8, height: 8, bitsPerPixel: 24, interlaced: false })).toBe(8 * 25);
    expect(inflatedSize({ width: 3, height: 2, bitsPerPixel: 1, interlaced: false })).toBe(4);
  });

  describe('leaves to sharp (returns null) anything not plain and intact', () => {
    let png: Buffer;
    const cases: [string, (png: Buffer) => Buffer][] = [
      ['not a PNG', () => Buffer.from('GIF89a not a png')],
      ['an empty file', () => Buffer.alloc(0)],
      ['a file cut in the middle', (p) => p.subarray(0, Math.floor(p.length / 2))],
      ['bytes after IEND', (p) => Buffer.concat([p, Buffer.from('extra')])],
      [
        'a chunk whose CRC is wrong',
        (p) => {
          const copy = Buffer.from(p);
          const at = copy.indexOf('IDAT', 8, 'latin1') + 10;
          copy[at] = (copy[at] ?? 0) ^ 0xff;
          return copy;
        },
      ],
      [
        'a chunk length past the end',
        (p) => {
          const copy = Buffer.from(p);
          copy.writeUInt32BE(0x7ffffff0, copy.indexOf('IDAT', 8, 'latin1') - 4);
          return copy;
        },
      ],
      ['an IDAT stream that is not deflate', (p) => withIdat(p, Buffer.from('plainly not zlib'))],
      [
        'an IDAT stream that ends early',
        (p) =>
          withIdat(
            p,
            deflateSync(
              inflateSync(
                Buffer.concat(
                  chunksOf(p)
                    .filter((c) => c.type === 'IDAT')
                    .map((c) => c.data),
                ),
              ).subarray(0, 100),
            ),
          ),
      ],
      [
        'an IDAT stream that inflates to more than the header says (a bomb)',
        (p) => withIdat(p, deflateSync(Buffer.alloc(50 * 1024 * 1024))),
      ],
      [
        'IDAT chunks that are not consecutive',
        (p) => {
          const chunks = chunksOf(p);
          const at = chunks.findIndex((c) => c.type === 'IDAT');
          const idat = chunks[at];
          if (!idat) return p;
          const half = Math.floor(idat.data.length / 2);
          chunks.splice(
            at,
            1,
            { type: 'IDAT', data: idat.data.subarray(0, half) },
            { type: 'tEXt', data: Buffer.from('k\0v') },
            { type: 'IDAT', data: idat.data.subarray(half) },
          );
          return build(chunks);
        },
      ],
      [
        'a header of the wrong size',
        (p) => {
          const chunks = chunksOf(p);
          const ihdr = chunks[0];
          if (ihdr) chunks[0] = { type: 'IHDR', data: Buffer.concat([ihdr.data, Buffer.alloc(1)]) };
          return build(chunks);
        },
      ],
      [
        'a bit depth PNG does not have',
        (p) => {
          const chunks = chunksOf(p);
          const ihdr = chunks[0];
          if (ihdr) {
            const data = Buffer.from(ihdr.data);
            data[8] = 3;
            chunks[0] = { type: 'IHDR', data };
          }
          return build(chunks);
        },
      ],
      [
        'a bit depth its colour type does not allow (16-bit palette)',
        (p) => {
          const chunks = chunksOf(p);
          const ihdr = chunks[0];
          if (ihdr) {
            const data = Buffer.from(ihdr.data);
            [data[8], data[9]] = [16, 3];
            chunks[0] = { type: 'IHDR', data };
          }
          return build(chunks);
        },
      ],
      [
        'a scanline with a filter type PNG does not have',
        (p) => {
          const stream = inflateSync(idatOf(p));
          stream[(1 + 64 * 3) * 7] = 5; // the eighth row's filter byte
          return withIdat(p, deflateSync(stream));
        },
      ],
      [
        'bytes after the end of the IDAT stream',
        (p) => withIdat(p, Buffer.concat([idatOf(p), Buffer.from('tail')])),
      ],
      [
        'an IDAT stream whose Adler-32 is wrong',
        (p) => {
          const stream = Buffer.from(idatOf(p));
          stream[stream.length - 1] = (stream[stream.length - 1] ?? 0) ^ 1;
          return withIdat(p, stream);
        },
      ],
    ];

    it.each(cases)('%s', async (_name, damage) => {
      png ??= await raw(64, 48, 3).png().toBuffer();
      expect(storedPng(damage(png), LIMIT)).toBeNull();
    });

    it('an image of more pixels than the limit', async () => {
      const png = await raw(64, 48, 3).png().toBuffer();
      expect(storedPng(png, 64 * 48 - 1)).toBeNull();
      expect(storedPng(png, 64 * 48)).not.toBeNull();
    });

    it('a 1-bit image over the pixel limit whose stream is small (not inflated at all)', async () => {
      // 4000 × 4000 pixels at 1 bit: 2 MB inflated, a few KB on disk. The limit is checked on the
      // header, so a small bit depth cannot carry more pixels than the caller allows.
      const png = await sharp({
        create: { width: 4000, height: 4000, channels: 3, background: '#fff' },
      })
        .png({ palette: true, colours: 2 })
        .toBuffer();
      expect((await sharp(png).metadata()).bitsPerSample).toBe(1);
      expect(storedPng(png, 1_000_000)).toBeNull();
      expect(storedPng(png, 16_000_000)).not.toBeNull();
    });
  });
});
