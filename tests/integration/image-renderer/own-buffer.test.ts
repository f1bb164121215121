/**
 * Every thumbnail job reads its file into the decoding worker's own buffer and decodes it with
 * WebCodecs' ImageDecoder, so the browser process (main's, in Electron) holds no Blob of it. The
 * reference is the page's old path, Chromium's decode of a Blob (createImageBitmap with the EXIF
 * orientation, then a high-quality resize, drawn and encoded as the page encodes), run here in a
 * plain page of the same browser:
 * - a PNG's thumbnail is that reference byte for byte;
 * - a JPEG's or WebP's is within a few levels of it, and the same bytes every time: a
 *   WebP's or a small JPEG's YUV frame is converted to RGB apart from the scaling, and a large JPEG
 *   is decoded reduced (libjpeg's M/8 scaling), so neither can be byte-identical. Every EXIF
 *   orientation is checked on a picture whose corners differ, decoded whole and reduced.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHeaderOfBytes } from '../../../electron/core/images/image-header';
import { eighthsFor } from '../../../electron/image-renderer/jpeg-scale';
import type {
  ImageFormat,
  ImageHeaderInfo,
  ThumbnailAnswer,
} from '../../../electron/ports/image-engine';
import { exifBlock } from '../../support/exif-block';
import * as make from '../../support/hostile-images';
import { build, chunksOf, type Chunk } from '../../support/png-chunks';
import * as made from './image-fixtures';
import { usePageStand } from './page-setup';

const page = usePageStand(40_000);
const THUMBNAIL = 384;
/**
 * Mean difference per channel (0–255) a JPEG's or WebP's thumbnail may show from the reference:
 * the bound thumbnail-fidelity.test.ts holds every thumbnail to against sharp's Lanczos-3 (measured
 * here: 1.1 at most for RGB JPEGs, 1.7 for CMYK, 1.9 for a WebP with alpha). A wrong turn or flip
 * of the quarters below differs by tens of levels.
 */
const MAX_MEAN_DIFFERENCE = 2.5;
let fileNumber = 0;
let plain: Page | undefined;

beforeAll(async () => {
  plain = await page.setup().browser.newPage();
});
afterAll(async () => {
  await plain?.close();
});

async function thumbnailAs(bytes: Buffer, format: ImageFormat): Promise<ThumbnailAnswer> {
  const checked = await checkHeaderOfBytes(bytes, format, 100_000_000);
  if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.refusal)}`);
  fileNumber += 1;
  const file = join(page.setup().dir, `own-${fileNumber}`);
  await writeFile(file, bytes);
  return page.stand().engine.thumbnail({ file, header: checked.header, thumbnailSize: THUMBNAIL });
}

/** The page's old path: the bytes as a Blob, decoded oriented, scaled, drawn and encoded. */
async function blobThumbnail(bytes: Buffer): Promise<Buffer> {
  if (!plain) throw new Error('No page.');
  const encoded = await plain.evaluate(
    async ({ base64, side }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([data]), { imageOrientation: 'from-image' });
      const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      const scaled =
        width === bitmap.width && height === bitmap.height
          ? bitmap
          : await createImageBitmap(bitmap, {
              resizeWidth: width,
              resizeHeight: height,
              resizeQuality: 'high',
            });
      const canvas = new OffscreenCanvas(width, height);
      canvas.getContext('2d')?.drawImage(scaled, 0, 0);
      const blob = await canvas.convertToBlob({ type: 'image/webp', quality: 0.82 });
      const out = new Uint8Array(await blob.arrayBuffer());
      let text = '';
      for (const byte of out) text += String.fromCharCode(byte);
      return btoa(text);
    },
    { base64: bytes.toString('base64'), side: THUMBNAIL },
  );
  return Buffer.from(encoded, 'base64');
}

async function rgbOf(webp: Uint8Array) {
  const { data, info } = await sharp(webp)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The page's thumbnail of `bytes` and the reference's, each with its size. */
async function bothOf(bytes: Buffer, format: ImageFormat) {
  const own = await thumbnailAs(bytes, format);
  if (own.kind !== 'thumbnail') throw new Error(`no thumbnail: ${JSON.stringify(own)}`);
  return { own, reference: await blobThumbnail(bytes) };
}

describe('a PNG in the worker’s own buffer', () => {
  it('thumbnails byte for byte as Chromium’s Blob decode: photo, 16-bit, alpha, palette, interlaced, turned, animated', async () => {
    const cases: [string, Buffer][] = [
      ['photo-like', await made.encode(await made.photoPixels(900, 700), 900, 700, 'png')],
      ['16-bit', await made.sixteenBitPng(500, 300)],
      [
        'alpha',
        await sharp(make.pictureRaw(300, 200, 4), { raw: { width: 300, height: 200, channels: 4 } })
          .png()
          .toBuffer(),
      ],
      ['palette', await make.picture(300, 200).png({ palette: true }).toBuffer()],
      ['interlaced', await make.picture(300, 200).png({ progressive: true }).toBuffer()],
      ['orientation 6', await made.rotatedPng(400, 300)],
      ['orientation 6, smaller than its thumbnail', await made.rotatedPng(200, 150)],
      ['small', await make.png(3, 2)],
      ['animated (its first frame)', await make.apng(300, 200)],
    ];
    for (const [name, bytes] of cases) {
      const { own, reference } = await bothOf(bytes, 'png');
      expect(Buffer.from(own.webp).equals(reference), name).toBe(true);
    }
  });

  it('refuses bytes that are not the format the job named, and a file cut short, as undecodable', async () => {
    const png = await make.png(300, 200);
    const jpeg = await make.jpeg(300, 200);
    const webp = await make.webpLossless(300, 200);
    const cases: [string, Buffer, ImageHeaderInfo][] = [
      ['a JPEG named PNG', jpeg, made.headerOf('png', 300, 200)],
      ['a WebP named PNG', webp, made.headerOf('png', 300, 200)],
      ['a PNG named JPEG', png, made.headerOf('jpeg', 300, 200)],
      ['a WebP named JPEG', webp, made.headerOf('jpeg', 300, 200)],
      ['a PNG named WebP', png, made.headerOf('webp', 300, 200)],
      ['a JPEG named WebP', jpeg, made.headerOf('webp', 300, 200)],
      ['a PNG cut short', png.subarray(0, png.length - 200), made.headerOf('png', 300, 200)],
      ['a JPEG cut short', jpeg.subarray(0, jpeg.length >> 1), made.headerOf('jpeg', 300, 200)],
      ['a WebP cut short', webp.subarray(0, webp.length >> 1), made.headerOf('webp', 300, 200)],
    ];
    for (const [name, bytes, header] of cases) {
      fileNumber += 1;
      const file = join(page.setup().dir, `own-${fileNumber}`);
      await writeFile(file, bytes);
      const answer = await page
        .stand()
        .engine.thumbnail({ file, header, thumbnailSize: THUMBNAIL });
      expect(answer.kind, name).toBe('undecodable');
    }
  });
});

/** `width`×`height` stored, each quarter its own colour, with EXIF `orientation`. */
async function quarters(
  format: 'jpeg' | 'webp',
  width: number,
  height: number,
  orientation = 1,
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      raw[at] = x < width / 2 ? 230 : 20;
      raw[at + 1] = y < height / 2 ? 230 : 20;
      raw[at + 2] = (x * 255) / width;
    }
  }
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  const encoded = format === 'jpeg' ? image.jpeg({ quality: 92 }) : image.webp({ quality: 92 });
  return encoded.withMetadata({ orientation }).toBuffer();
}

/**
 * `jpeg` with the value of its EXIF orientation entry (IFD0's tag 0x0112) set to `orientation`:
 * the very bytes sharp writes for that orientation (its encode does not depend on the value), so
 * a size's eight orientations cost one encode instead of eight.
 */
function reoriented(jpeg: Buffer, orientation: number): Buffer {
  const copy = Buffer.from(jpeg);
  const tiff = copy.indexOf('Exif\0\0', 0, 'latin1') + 6;
  const little = copy.toString('latin1', tiff, tiff + 2) === 'II';
  const u16 = (at: number) => (little ? copy.readUInt16LE(at) : copy.readUInt16BE(at));
  const ifd = tiff + (little ? copy.readUInt32LE(tiff + 4) : copy.readUInt32BE(tiff + 4));
  for (let entry = ifd + 2; entry < ifd + 2 + u16(ifd) * 12; entry += 12) {
    if (u16(entry) !== 0x0112) continue;
    if (little) copy.writeUInt16LE(orientation, entry + 8);
    else copy.writeUInt16BE(orientation, entry + 8);
    return copy;
  }
  throw new Error('The JPEG has no EXIF orientation entry.');
}

/** The JPEG or WebP thumbnail is the reference's size and within a few levels of it. */
async function expectCloseToBlob(name: string, bytes: Buffer, format: 'jpeg' | 'webp') {
  const { own, reference } = await bothOf(bytes, format);
  const [a, b] = [await rgbOf(own.webp), await rgbOf(reference)];
  expect([a.width, a.height], name).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 1) sum += Math.abs(a.data[i]! - b.data[i]!);
  expect(sum / a.data.length, name).toBeLessThanOrEqual(MAX_MEAN_DIFFERENCE);
  const again = await thumbnailAs(bytes, format);
  expect(
    again.kind === 'thumbnail' && Buffer.from(again.webp).equals(Buffer.from(own.webp)),
    `${name}: the same bytes again`,
  ).toBe(true);
}

describe('a JPEG or WebP in the worker’s own buffer', () => {
  it.each([
    ['smaller than its thumbnail', 300, 200],
    ['square, smaller than its thumbnail', 300, 300],
    ['decoded whole, then scaled (no eighth is smaller and covers it)', 420, 300],
    ['decoded at 7/8', 500, 300],
    ['decoded at 2/8', 1600, 1200],
    ['decoded at 2/8, odd sides', 2047, 1021],
    // Its long side sets the scale: 1/8 of 3,200 covers 384; a short side of 1,200 instead of
    // 2,400 shows the same turns at half the pixels each orientation decodes.
    ['decoded at 1/8', 3200, 1200],
  ] as const)(
    'JPEG %s: every EXIF orientation turns as the Blob decode turns it',
    async (_how, width, height) => {
      const upright = await quarters('jpeg', width, height, 1);
      for (let orientation = 1; orientation <= 8; orientation += 1) {
        const bytes = reoriented(upright, orientation);
        expect((await sharp(bytes).metadata()).orientation).toBe(orientation);
        await expectCloseToBlob(`orientation ${orientation}`, bytes, 'jpeg');
      }
    },
  );

  it('JPEG kinds, large enough to be decoded reduced: progressive, greyscale, 4:4:4, CMYK', async () => {
    // Decoded at 4/8 (its long side at 3/8 is 338, short of the thumbnail's 384): reduced, as
    // 2/8 is, at a quarter of the pixels 1800×1200 cost to make, decode and compare.
    const [width, height] = [900, 600];
    expect(eighthsFor({ width, height }, { width: THUMBNAIL, height: THUMBNAIL })).toBe(4);
    const raw = await made.photoPixels(width, height);
    const image = () => sharp(raw, { raw: { width, height, channels: 3 } });
    const cases: [string, Buffer][] = [
      ['baseline 4:2:0', await image().jpeg({ quality: 90 }).toBuffer()],
      ['progressive', await image().jpeg({ quality: 90, progressive: true }).toBuffer()],
      ['greyscale', await image().greyscale().jpeg({ quality: 90 }).toBuffer()],
      ['4:4:4', await image().jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer()],
      ['CMYK', await image().toColourspace('cmyk').jpeg({ quality: 90 }).toBuffer()],
    ];
    for (const [name, bytes] of cases) await expectCloseToBlob(name, bytes, 'jpeg');
  });

  it('WebP kinds: lossy, lossless, alpha, large, animated (its first frame)', async () => {
    const cases: [string, Buffer][] = [
      ['lossy', await quarters('webp', 900, 700)],
      ['large', await quarters('webp', 2000, 1500)],
      ['lossless', await make.webpLossless(300, 200)],
      [
        'alpha',
        await sharp(make.pictureRaw(300, 200, 4), { raw: { width: 300, height: 200, channels: 4 } })
          .webp()
          .toBuffer(),
      ],
      ['animated', await made.animatedWebp(200, 100)],
    ];
    for (const [name, bytes] of cases) await expectCloseToBlob(name, bytes, 'webp');
  });
});

describe('a PNG job (toPng) in the worker’s own buffer', () => {
  it('turns a turned JPEG, takes a WebP and a PNG, and refuses an IHDR smaller than its pixels', async () => {
    const engine = page.stand().engine;
    const turned = await made.rotatedJpeg(400, 300);
    expect(await sharp(await engine.toPng(turned, 100)).metadata()).toMatchObject({
      format: 'png',
      width: 75,
      height: 100,
    });
    for (const bytes of [await quarters('webp', 300, 200), await make.png(300, 200)]) {
      expect(await sharp(await engine.toPng(bytes)).metadata()).toMatchObject({
        format: 'png',
        width: 300,
        height: 200,
      });
    }
    const real = await made.encode(await made.photoPixels(256, 256), 256, 256, 'png');
    await expect(engine.toPng(await made.pngDeclaring(64, 64, real))).rejects.toThrow(/decoded/);
  });
});

describe('main and the page read a PNG’s eXIf alike', () => {
  /** A 400×300 PNG with `extra` chunks put just before its first IDAT (or after its last). */
  async function pngWith(extra: Chunk[], where: 'before' | 'after' = 'before'): Promise<Buffer> {
    const chunks = chunksOf(await made.encode(await made.photoPixels(400, 300), 400, 300, 'png'));
    const plain = chunks.filter((chunk) => chunk.type !== 'eXIf');
    const at = plain.findIndex((chunk) => chunk.type === (where === 'before' ? 'IDAT' : 'IEND'));
    return build([...plain.slice(0, at), ...extra, ...plain.slice(at)]);
  }
  const tiff = (orientation: number, order: 'II' | 'MM' = 'II') =>
    exifBlock([[0x0112, 3, 1, orientation]], order).subarray(6);

  it.each([
    ['big-endian TIFF', () => pngWith([{ type: 'eXIf', data: tiff(6, 'MM') }])],
    ['orientation 8', () => pngWith([{ type: 'eXIf', data: tiff(8) }])],
    [
      'the Exif prefix before the TIFF data',
      () => pngWith([{ type: 'eXIf', data: Buffer.concat([Buffer.from('Exif\0\0'), tiff(6)]) }]),
    ],
    [
      'two eXIf chunks (the first counts)',
      () =>
        pngWith([
          { type: 'eXIf', data: tiff(6) },
          { type: 'eXIf', data: tiff(1) },
        ]),
    ],
    ['an eXIf after the image data', () => pngWith([{ type: 'eXIf', data: tiff(6) }], 'after')],
    ['a value out of range', () => pngWith([{ type: 'eXIf', data: tiff(9) }])],
    [
      'an eXIf whose checksum fails',
      async () => {
        const bytes = Buffer.from(await pngWith([{ type: 'eXIf', data: tiff(6) }]));
        const at = bytes.indexOf('eXIf', 0, 'latin1');
        bytes[at + 16] = (bytes[at + 16] ?? 0) ^ 0xff;
        return bytes;
      },
    ],
    [
      'an eXIf larger than main reads (its start counts)',
      () =>
        pngWith([{ type: 'eXIf', data: Buffer.concat([tiff(6), Buffer.alloc(200_000, 0x20)]) }]),
    ],
  ])('%s: the page decodes the size main’s header check read', async (_name, bytesOf) => {
    const bytes = await bytesOf();
    const answer = await thumbnailAs(bytes, 'png');
    expect(answer.kind).toBe('thumbnail');
  });
});
