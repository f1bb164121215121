/**
 * The `sharp-native` engine through the one image check, on real files and on every hostile class
 * the header check lets through (the ones it refuses never reach an engine): each is a correct
 * thumbnail or a clean refusal, never a throw or a hang.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharpNativeEngine } from '../../../../electron/adapters/image-engines/sharp-native-engine';
import { THUMBNAIL_WEBP_QUALITY } from '../../../../shared/domain/thumbnail-webp';
import { checkImageFile, type ImageCheck } from '../../../../electron/core/images/image-check';
import type { ImageFormat } from '../../../../electron/ports/image-engine';
import * as make from '../../../support/hostile-images';
import { chunksOf, build } from '../../../support/png-chunks';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const engine = createSharpNativeEngine();
let dir = '';
let count = 0;

beforeAll(async () => {
  dir = await tempFolder('gallery');
});
afterAll(() => removeFolder(dir));

async function check(bytes: Buffer, kind: ImageFormat, thumbnailSize = 64): Promise<ImageCheck> {
  count += 1;
  const file = join(dir, `image-${count}`);
  await writeFile(file, bytes);
  return checkFile(file, kind, thumbnailSize);
}

function checkFile(file: string, kind: ImageFormat, thumbnailSize = 64): Promise<ImageCheck> {
  return checkImageFile(file, kind, {
    root: dir,
    engine,
    maxPixels: 50_000_000,
    maxBytes: 64 << 20,
    thumbnailSize,
  });
}

async function thumbnailOf(result: ImageCheck) {
  if (result.kind !== 'thumbnail') throw new Error(`no thumbnail: ${JSON.stringify(result)}`);
  const meta = await sharp(result.webp).metadata();
  return {
    width: result.width,
    height: result.height,
    thumb: [meta.format, meta.width, meta.height],
  };
}

describe('real files', () => {
  it.each([
    ['PNG', make.png, 'png'],
    ['JPEG', make.jpeg, 'jpeg'],
    ['lossy WebP', make.webpLossy, 'webp'],
    ['lossless WebP', make.webpLossless, 'webp'],
    ['extended WebP with alpha', make.webpExtended, 'webp'],
    ['CMYK JPEG', make.cmykJpeg, 'jpeg'],
    ['16-bit PNG', make.png16, 'png'],
  ] as const)(
    '%s: decoded size and a WebP thumbnail inside the size',
    async (_name, maker, kind) => {
      expect(await thumbnailOf(await check(await maker(320, 200), kind))).toEqual({
        width: 320,
        height: 200,
        thumb: ['webp', 64, 40],
      });
    },
  );

  it('a small image is not enlarged', async () => {
    expect(await thumbnailOf(await check(await make.png(30, 20), 'png'))).toMatchObject({
      thumb: ['webp', 30, 20],
    });
  });

  it.each([
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((orientation) => ['jpeg', orientation] as const),
    ...[1, 3, 6, 8].map((orientation) => ['png', orientation] as const),
  ])(
    '%s with EXIF orientation %i: shown turned, sides swapped for 5–8',
    async (format, orientation) => {
      const swapped = orientation >= 5;
      const build = format === 'jpeg' ? make.orientedJpeg : make.orientedPng;
      expect(await thumbnailOf(await check(await build(128, 64, orientation), format))).toEqual({
        width: swapped ? 64 : 128,
        height: swapped ? 128 : 64,
        thumb: ['webp', swapped ? 32 : 64, swapped ? 64 : 32],
      });
    },
  );

  it('APNG and animated WebP: the first frame at the canvas size', async () => {
    expect(await thumbnailOf(await check(await make.apng(128, 64), 'png'))).toEqual({
      width: 128,
      height: 64,
      thumb: ['webp', 64, 32],
    });
    expect(await thumbnailOf(await check(await make.animatedWebp(128, 64), 'webp'))).toEqual({
      width: 128,
      height: 64,
      thumb: ['webp', 64, 32],
    });
  });
});

describe('broken and hostile files', () => {
  it.each([
    ['png', make.png],
    ['jpeg', make.jpeg],
    ['webp', make.webpLossy],
  ] as const)(
    '%s cut at 60 %%, 100 bytes short, or with bytes flipped: refused',
    async (kind, maker) => {
      const whole = await maker(256, 256);
      for (const bytes of [make.truncated(whole, 0.6), whole.subarray(0, whole.length - 100)]) {
        expect((await check(bytes, kind)).kind, `${kind} cut`).toMatch(/^(undecodable|refused)$/);
      }
      const flipped = await check(make.flipped(whole, 400), kind);
      expect(flipped.kind).toMatch(/^(undecodable|refused|thumbnail)$/);
      if (flipped.kind === 'thumbnail') expect([flipped.width, flipped.height]).toEqual([256, 256]);
    },
  );

  it('a PNG header that lies about the size (smaller or larger than its pixel data): refused', async () => {
    const real = await make.png(64, 64);
    expect((await check(make.pngClaiming(real, 32, 64), 'png')).kind).toBe('undecodable');
    expect((await check(make.pngClaiming(real, 128, 128), 'png')).kind).toBe('undecodable');
  });

  it('a JPEG frame header that lies about the size: a clean answer, never another size', async () => {
    const result = await check(make.jpegClaiming(await make.jpeg(64, 64), 64, 4000), 'jpeg');
    expect(result.kind).toMatch(/^(undecodable|thumbnail)$/);
    if (result.kind === 'thumbnail') expect([result.width, result.height]).toEqual([64, 4000]);
  });

  it('a PNG whose IDAT is a zip bomb (256 MB of zeros in a small stream): refused', async () => {
    const chunks = chunksOf(await make.png(100, 100));
    const bomb = deflateSync(Buffer.alloc(256 * 1024 * 1024), { level: 9 });
    const others = chunks.filter((chunk) => chunk.type !== 'IDAT');
    const at = chunks.findIndex((chunk) => chunk.type === 'IDAT');
    others.splice(at, 0, { type: 'IDAT', data: bomb });
    const result = await check(build(others), 'png');
    expect(result.kind).toMatch(/^(undecodable|thumbnail)$/);
    if (result.kind === 'thumbnail') expect([result.width, result.height]).toEqual([100, 100]);
  });
});

describe('conversions', () => {
  it('toPng: a PNG that fits the side asked for', async () => {
    const out = await engine.toPng(await make.jpeg(300, 100), 128);
    expect(await sharp(Buffer.from(out)).metadata()).toMatchObject({
      format: 'png',
      width: 128,
      height: 43,
    });
  });

  it('renderSvgPng: an exact-size PNG', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>';
    const out = await engine.renderSvgPng(svg, { width: 33, height: 17 });
    expect(await sharp(Buffer.from(out)).metadata()).toMatchObject({
      format: 'png',
      width: 33,
      height: 17,
    });
  });
});

describe('WebP settings', () => {
  /** sharp's own thumbnail of `file`, as the engine makes one, at `webp`'s settings. */
  const expected = (file: string, webp: { quality: number; effort: number }) =>
    sharp(file)
      .resize({ width: 64, height: 64, fit: 'inside', withoutEnlargement: true })
      .webp(webp)
      .toBuffer();

  it('the engine’s own (every engine’s quality, effort 2), or the ones it is given (the bench’s sharp control)', async () => {
    count += 1;
    const file = join(dir, `image-${count}`);
    await writeFile(file, await make.png(300, 200));
    const given = { quality: 82, effort: 3 };
    const held = createSharpNativeEngine(given);
    const check = (engineUsed: typeof engine) =>
      checkImageFile(file, 'png', {
        root: dir,
        engine: engineUsed,
        maxPixels: 50_000_000,
        maxBytes: 64 << 20,
        thumbnailSize: 64,
      });
    const own = await check(engine);
    const other = await check(held);
    if (own.kind !== 'thumbnail' || other.kind !== 'thumbnail') throw new Error('no thumbnail');
    const quality = THUMBNAIL_WEBP_QUALITY;
    expect(Buffer.from(own.webp).equals(await expected(file, { quality, effort: 2 }))).toBe(true);
    // The bytes tell the quality: the one two steps below (the engine's 80 before) is another file.
    expect(
      Buffer.from(own.webp).equals(await expected(file, { quality: quality - 2, effort: 2 })),
    ).toBe(false);
    expect(Buffer.from(other.webp).equals(await expected(file, given))).toBe(true);
    expect(Buffer.from(other.webp).equals(Buffer.from(own.webp))).toBe(false);
  });
});

describe('a thumbnail stopped while it waits its turn', () => {
  it('leaves the line at once, stopped, before the decodes ahead of it end', async () => {
    count += 1;
    const file = join(dir, `image-${count}`);
    await writeFile(file, await make.png(320, 200));
    const header = {
      format: 'png' as const,
      width: 320,
      height: 200,
      orientation: 1,
      orientedWidth: 320,
      orientedHeight: 200,
    };
    const own = createSharpNativeEngine();
    const ended: string[] = [];
    const ask = (name: string, signal?: AbortSignal) =>
      own.thumbnail({ file, header, thumbnailSize: 64, ...(signal ? { signal } : {}) }).then(
        (answer) => void ended.push(`${name} ${answer.kind}`),
        (error: unknown) => void ended.push(`${name} ${(error as { why?: string }).why}`),
      );
    // DECODES_AT_ONCE (2) decodes at work; the third waits its turn and is stopped there.
    const stop = new AbortController();
    const asked = [ask('first'), ask('second'), ask('third', stop.signal)];
    stop.abort();
    await Promise.all(asked);
    // The two ahead end in either order (two threads).
    expect([ended[0], ended.slice(1).sort()]).toEqual([
      'third stopped',
      ['first thumbnail', 'second thumbnail'],
    ]);
  });
});
