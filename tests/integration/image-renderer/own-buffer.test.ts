/**
 * A PNG thumbnail job reads the file into the decoding worker's own buffer and decodes it with
 * WebCodecs' ImageDecoder, so the browser process (main's, in Electron) holds no Blob of it. Its
 * thumbnails are byte for byte those of the Blob path (createImageBitmap of a Blob), which the
 * page keeps for JPEG and WebP: the same PNGs sent as if they were JPEGs (Chromium sniffs a
 * Blob's bytes, not the label) take that path for the comparison. (A lossy WebP decoded by
 * ImageDecoder is not byte-identical to its Blob decode, the YUV frame's conversion differs: WebP
 * stays on the Blob path.)
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkHeaderOfBytes } from '../../../electron/core/images/image-header';
import type { ImageHeaderInfo, ThumbnailAnswer } from '../../../electron/ports/image-engine';
import { exifBlock } from '../../support/exif-block';
import * as make from '../../support/hostile-images';
import { build, chunksOf, type Chunk } from '../../support/png-chunks';
import * as made from './image-fixtures';
import { usePageStand } from './page-setup';

const page = usePageStand(40_000);
let fileNumber = 0;

async function thumbnailAs(bytes: Buffer, format: 'png' | 'jpeg'): Promise<ThumbnailAnswer> {
  const checked = await checkHeaderOfBytes(bytes, 'png', 100_000_000);
  if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.refusal)}`);
  fileNumber += 1;
  const file = join(page.setup().dir, `own-${fileNumber}`);
  await writeFile(file, bytes);
  return page.stand().engine.thumbnail({
    file,
    header: { ...checked.header, format },
    thumbnailSize: 384,
  });
}

/** Each case's thumbnail from its own buffer equals the Blob path's, byte for byte. */
async function expectSameAsBlob(cases: [string, Buffer][]): Promise<void> {
  for (const [name, bytes] of cases) {
    const own = await thumbnailAs(bytes, 'png');
    const blob = await thumbnailAs(bytes, 'jpeg');
    expect(own.kind, name).toBe('thumbnail');
    expect(blob.kind, name).toBe('thumbnail');
    if (own.kind !== 'thumbnail' || blob.kind !== 'thumbnail') continue;
    expect([own.width, own.height], name).toEqual([blob.width, blob.height]);
    expect(Buffer.from(own.webp).equals(Buffer.from(blob.webp)), name).toBe(true);
  }
}

describe('a PNG in the worker’s own buffer', () => {
  it('thumbnails byte for byte as the Blob path does: photo, 16-bit, alpha, palette, interlaced, turned, animated', async () => {
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
      ['small', await make.png(3, 2)],
      ['animated (its first frame)', await make.apng(300, 200)],
    ];
    await expectSameAsBlob(cases);
  });

  it('refuses bytes that are not the format the job named, and a file cut short, as undecodable', async () => {
    const png = await make.png(300, 200);
    const webp = await make.webpLossless(300, 200);
    const cases: [string, Buffer, ImageHeaderInfo][] = [
      ['a JPEG named PNG', await make.jpeg(300, 200), made.headerOf('png', 300, 200)],
      ['a WebP named PNG', webp, made.headerOf('png', 300, 200)],
      ['a PNG cut short', png.subarray(0, png.length - 200), made.headerOf('png', 300, 200)],
    ];
    for (const [name, bytes, header] of cases) {
      fileNumber += 1;
      const file = join(page.setup().dir, `own-${fileNumber}`);
      await writeFile(file, bytes);
      const answer = await page.stand().engine.thumbnail({ file, header, thumbnailSize: 384 });
      expect(answer.kind, name).toBe('undecodable');
    }
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
