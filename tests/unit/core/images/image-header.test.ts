/**
 * The header check (core/images/image-header.ts) on real files made by sharp and on every hostile
 * class built from them: pixel bombs, headers that lie about the size, truncations, animations,
 * CMYK, 16-bit, EXIF orientations; and, with fast-check, on arbitrary and mutated bytes: it never
 * throws, never reads outside the file and never reads more than its budget.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImageFormat } from '../../../../electron/ports/image-engine';
import {
  HEADER_READ_BUDGET,
  bufferSource,
  type ByteSource,
} from '../../../../electron/core/images/byte-source';
import { checkHeader, checkHeaderOfBytes } from '../../../../electron/core/images/image-header';
import { exifBlock as exif } from '../../../support/exif-block';
import * as make from '../../../support/hostile-images';

const LIMIT = 100_000_000;

function ok(result: Awaited<ReturnType<typeof checkHeaderOfBytes>>) {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.header;
}

async function refusal(bytes: Buffer, kind: ImageFormat, limit = LIMIT) {
  const result = await checkHeaderOfBytes(bytes, kind, limit);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.header)}`);
  return result.refusal;
}

describe('valid images', () => {
  it.each([
    ['PNG', make.png, 'png'],
    ['JPEG', make.jpeg, 'jpeg'],
    ['lossy WebP (VP8)', make.webpLossy, 'webp'],
    ['lossless WebP (VP8L)', make.webpLossless, 'webp'],
    ['extended WebP (VP8X + ALPH + VP8)', make.webpExtended, 'webp'],
    ['CMYK JPEG', make.cmykJpeg, 'jpeg'],
    ['16-bit PNG', make.png16, 'png'],
  ] as const)('%s: its size, orientation 1', async (_name, build, kind) => {
    const header = ok(await checkHeaderOfBytes(await build(301, 157), kind, LIMIT));
    expect(header).toEqual({
      format: kind,
      width: 301,
      height: 157,
      orientation: 1,
      orientedWidth: 301,
      orientedHeight: 157,
      animated: false,
    });
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'JPEG with EXIF orientation %i: sides swap on screen for 5–8 only',
    async (orientation) => {
      const header = ok(
        await checkHeaderOfBytes(await make.orientedJpeg(64, 40, orientation), 'jpeg', LIMIT),
      );
      const swapped = orientation >= 5;
      expect(header).toMatchObject({
        width: 64,
        height: 40,
        orientation,
        orientedWidth: swapped ? 40 : 64,
        orientedHeight: swapped ? 64 : 40,
      });
    },
  );

  it('APNG and animated WebP: kept, sized by their canvas, marked animated', async () => {
    expect(ok(await checkHeaderOfBytes(await make.apng(50, 30), 'png', LIMIT))).toMatchObject({
      width: 50,
      height: 30,
      animated: true,
    });
    const webp = await make.animatedWebp(50, 30);
    expect(ok(await checkHeaderOfBytes(webp, 'webp', LIMIT))).toMatchObject({
      width: 50,
      height: 30,
      animated: true,
    });
  });

  it('the pixel limit is inclusive', async () => {
    expect((await checkHeaderOfBytes(await make.png(100, 100), 'png', 10_000)).ok).toBe(true);
    expect(await refusal(await make.png(100, 101), 'png', 10_000)).toMatchObject({
      reason: 'too_many_pixels',
      width: 100,
      height: 101,
    });
  });
});

describe('hostile images', () => {
  it('pixel bombs are refused by their header, with the size they claim', async () => {
    const base = await make.png(20, 20);
    expect(await refusal(make.pngClaiming(base, 100_000, 100_000), 'png')).toMatchObject({
      reason: 'too_many_pixels',
      width: 100_000,
      height: 100_000,
    });
    expect(
      await refusal(make.jpegClaiming(await make.jpeg(20, 20), 65_535, 65_535), 'jpeg'),
    ).toMatchObject({ reason: 'too_many_pixels', width: 65_535, height: 65_535 });
    expect(await refusal(make.animatedCanvasOnly(16_777_216, 16_777_216), 'webp')).toMatchObject({
      reason: 'too_many_pixels',
    });
    expect(
      await refusal(make.vp8lClaiming(await make.webpLossless(20, 20), 16_384, 16_384), 'webp'),
    ).toMatchObject({ reason: 'too_many_pixels', width: 16_384, height: 16_384 });
  });

  it('a PNG side beyond what PNG allows, or beyond what a record holds, is refused', async () => {
    const base = await make.png(20, 20);
    expect(await refusal(make.pngClaiming(base, 2 ** 31, 1), 'png')).toMatchObject({
      reason: 'unreadable',
    });
    expect(await refusal(make.pngClaiming(base, 2_000_000, 1), 'png')).toMatchObject({
      reason: 'unreadable',
    });
  });

  it('an extended WebP whose canvas disagrees with its bitstream is refused as lying', async () => {
    const extended = await make.webpExtended(40, 30);
    expect(await refusal(make.webpCanvasClaiming(extended, 41, 30), 'webp')).toMatchObject({
      reason: 'unreadable',
    });
    expect(await refusal(make.webpCanvasClaiming(extended, 4000, 3000), 'webp')).toMatchObject({
      reason: 'unreadable',
    });
  });

  it('a header with no size is refused as such', async () => {
    const base = await make.png(20, 20);
    expect(await refusal(make.pngClaiming(base, 0, 20), 'png')).toMatchObject({
      reason: 'no_size',
    });
    expect(await refusal(make.jpegClaiming(await make.jpeg(20, 20), 20, 0), 'jpeg')).toMatchObject({
      reason: 'no_size',
    });
  });

  it.each([
    ['png', make.png],
    ['jpeg', make.jpeg],
    ['webp', make.webpLossy],
  ] as const)(
    'a %s cut inside its header is refused; cut after it, the decoder judges (WebP: the header)',
    async (kind, build) => {
      const whole = await build(200, 120);
      for (const cut of [0, 8, 11, 12, 16, 20, 25, 29]) {
        expect((await refusal(whole.subarray(0, cut), kind)).reason).toBe('unreadable');
      }
      // Past the header a PNG or JPEG check cannot see the cut (the engine's full decode refuses
      // it); a WebP says its length in its RIFF header.
      const late = await checkHeaderOfBytes(make.truncated(whole, 0.9), kind, LIMIT);
      expect(late.ok).toBe(kind !== 'webp');
    },
  );

  it('a PNG whose header chunk fails its checksum or holds invalid values is refused', async () => {
    const base = await make.png(20, 20);
    const badCrc = Buffer.from(base);
    badCrc[17] = (badCrc[17] ?? 0) ^ 1;
    expect((await refusal(badCrc, 'png')).reason).toBe('unreadable');
    const badDepth = Buffer.from(base);
    badDepth[24] = 3; // bit depth 3 exists for no colour type
    expect((await refusal(make.pngClaiming(badDepth, 20, 20), 'png')).reason).toBe('unreadable');
  });

  it('another format than expected, or no image at all, is refused', async () => {
    expect((await refusal(await make.png(20, 20), 'jpeg')).reason).toBe('type_mismatch');
    expect((await refusal(await make.jpeg(20, 20), 'webp')).reason).toBe('type_mismatch');
    expect((await refusal(Buffer.from('<html>not an image</html>'), 'png')).reason).toBe(
      'unreadable',
    );
  });
});

/** A JPEG from segments: SOI, then each `[marker, payload]`, then a minimal scan and EOI. */
function jpegOf(segments: [number, Buffer][], tail = true): Buffer {
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  for (const [marker, payload] of segments) {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(payload.length + 2, 2);
    parts.push(head, payload);
  }
  if (tail) parts.push(Buffer.from([0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0, 0x12, 0xff, 0xd9]));
  return Buffer.concat(parts);
}

const SOF0 = (width: number, height: number) => {
  const b = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  b.writeUInt16BE(height, 1);
  b.writeUInt16BE(width, 3);
  return [0xc0, b] as [number, Buffer];
};

describe('JPEG marker walk', () => {
  it('skips fill bytes, standalone markers and other segments to the frame header', async () => {
    const bytes = jpegOf([[0xfe, Buffer.from('comment')], SOF0(33, 44)]);
    const filled = Buffer.concat([
      bytes.subarray(0, 2),
      Buffer.from([0xff, 0xff, 0xff, 0xd0]),
      bytes.subarray(2),
    ]);
    expect(ok(await checkHeaderOfBytes(filled, 'jpeg', LIMIT))).toMatchObject({
      width: 33,
      height: 44,
    });
  });

  it('reads the entries an EXIF block holds when it claims more than it holds', async () => {
    const block = exif([[0x0112, 3, 1, 6]]);
    block.writeUInt16LE(0xffff, 6 + 8); // 65,535 entries claimed, one present
    const header = ok(
      await checkHeaderOfBytes(jpegOf([[0xe1, block], SOF0(30, 20)]), 'jpeg', LIMIT),
    );
    expect(header.orientation).toBe(6);
  });

  it('takes the first EXIF block, also after an XMP APP1 and after the frame header, in both byte orders', async () => {
    const xmp: [number, Buffer] = [
      0xe1,
      Buffer.from('http://ns.adobe.com/xap/1.0/\0<x/>', 'latin1'),
    ];
    const six = exif([[0x0112, 3, 1, 6]], 'MM');
    const eight = exif([[0x0112, 3, 1, 8]]);
    const header = ok(
      await checkHeaderOfBytes(
        jpegOf([xmp, SOF0(30, 20), [0xe1, six], [0xe1, eight]]),
        'jpeg',
        LIMIT,
      ),
    );
    expect(header).toMatchObject({ orientation: 6, orientedWidth: 20, orientedHeight: 30 });
  });

  it('an EXIF block that lies (offsets out of range, wrong type, counts past its end, values out of range) reads as orientation 1', async () => {
    const lying = [
      exif([[0x0112, 4, 1, 6]]),
      exif([[0x0112, 3, 0, 6]]),
      exif([[0x0112, 3, 1, 9]]),
      Buffer.concat([
        Buffer.from('Exif\0\0II*\0', 'latin1'),
        Buffer.from([0xff, 0xff, 0xff, 0x7f]),
      ]),
      (() => {
        const b = exif([[0x0100, 3, 1, 6]]);
        b.writeUInt16LE(0xffff, 6 + 8);
        return b;
      })(),
      Buffer.from('Exif\0\0MM', 'latin1'),
    ];
    for (const block of lying) {
      const header = ok(
        await checkHeaderOfBytes(jpegOf([[0xe1, block], SOF0(30, 20)]), 'jpeg', LIMIT),
      );
      expect(header.orientation).toBe(1);
    }
  });

  it('refuses a scan before any frame, two frame headers, a file ending before its scan', async () => {
    expect((await refusal(jpegOf([]), 'jpeg')).reason).toBe('unreadable');
    expect((await refusal(jpegOf([SOF0(10, 10), SOF0(20, 20)]), 'jpeg')).reason).toBe('unreadable');
    expect((await refusal(jpegOf([SOF0(10, 10)], false), 'jpeg')).reason).toBe('unreadable');
    expect(
      (await refusal(jpegOf([[0xfe, Buffer.alloc(1)], SOF0(10, 10)]).subarray(0, 8), 'jpeg'))
        .reason,
    ).toBe('unreadable');
  });

  it('walks a thousand APP11 segments (a C2PA store split up) to the frame header', async () => {
    const app11: [number, Buffer] = [0xeb, Buffer.alloc(600, 0x4a)];
    const signed = jpegOf([...Array.from({ length: 1_000 }, () => app11), SOF0(40, 30)]);
    expect(ok(await checkHeaderOfBytes(signed, 'jpeg', LIMIT))).toMatchObject({
      width: 40,
      height: 30,
    });
  });

  it('stops after a bounded number of segments, whatever the file holds', async () => {
    const many = jpegOf([
      ...Array.from({ length: 100_000 }, (): [number, Buffer] => [0xfe, Buffer.alloc(0)]),
      SOF0(10, 10),
    ]);
    const source = counting(bufferSource(many));
    expect((await refusal(many, 'jpeg')).reason).toBe('unreadable');
    await checkHeader(source, 'jpeg', LIMIT);
    expect(source.reads).toBeLessThanOrEqual(HEADER_READ_BUDGET.reads);
  });
});

/** A source that fails the test on any read outside the bytes, and counts what was read. */
function counting(source: ByteSource): ByteSource & { reads: number; bytes: number } {
  const counted = {
    size: source.size,
    reads: 0,
    bytes: 0,
    read(offset: number, length: number) {
      if (offset < 0 || length < 0 || offset + length > source.size) {
        throw new Error(`read outside the file: ${offset}+${length} of ${source.size}`);
      }
      counted.reads += 1;
      counted.bytes += length;
      return source.read(offset, length);
    },
  };
  return counted;
}

const SIGNATURES: Record<ImageFormat, Buffer> = {
  png: Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
  ]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff]),
  webp: Buffer.from('RIFF\xff\xff\xff\x7fWEBPVP8', 'latin1'),
};

async function neverFails(bytes: Uint8Array, kind: ImageFormat): Promise<void> {
  const source = counting(bufferSource(bytes));
  const result = await checkHeader(source, kind, LIMIT);
  expect(typeof result.ok).toBe('boolean');
  expect(source.reads).toBeLessThanOrEqual(HEADER_READ_BUDGET.reads);
  expect(source.bytes).toBeLessThanOrEqual(HEADER_READ_BUDGET.bytes);
  if (result.ok) {
    expect(result.header.width * result.header.height).toBeLessThanOrEqual(LIMIT);
    expect(result.header.orientation).toBeGreaterThanOrEqual(1);
    expect(result.header.orientation).toBeLessThanOrEqual(8);
  }
}

describe('any bytes at all (fast-check)', () => {
  const kinds = fc.constantFrom<ImageFormat>('png', 'jpeg', 'webp');

  it('never throws, never reads outside the file, stays within its budget', async () => {
    await fc.assert(
      fc.asyncProperty(kinds, fc.uint8Array({ maxLength: 4096 }), async (kind, tail) => {
        await neverFails(Buffer.concat([SIGNATURES[kind], tail]), kind);
        await neverFails(tail, kind);
      }),
      { numRuns: 1500 },
    );
  });

  it('real files with bytes changed, cut or inserted anywhere: the same', async () => {
    const files: [ImageFormat, Buffer][] = [
      ['png', await make.apng(40, 30)],
      ['jpeg', await make.orientedJpeg(40, 30, 6)],
      ['png', await make.orientedPng(40, 30, 6)],
      ['jpeg', await make.cmykJpeg(40, 30)],
      ['webp', await make.webpExtended(40, 30)],
      ['webp', await make.animatedWebp(40, 30)],
      ['webp', await make.webpLossless(40, 30)],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...files),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.option(fc.nat()),
        async ([kind, file], changes, cut) => {
          const bytes = Buffer.from(file);
          for (const [at, value] of changes) bytes[at % bytes.length] = value;
          const end = cut === null ? bytes.length : cut % (bytes.length + 1);
          await neverFails(bytes.subarray(0, end), kind);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
