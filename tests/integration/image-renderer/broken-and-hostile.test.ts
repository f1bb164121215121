/**
 * The image renderer's page in Debian's Chromium against broken and hostile files: each is a
 * clean refusal (`undecodable`) or a correct thumbnail (the oriented size, fitted inside 384 px,
 * a WebP that decodes), within the job's time limit, and the page never crashes: one renderer
 * serves the whole file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkHeaderOfBytes } from '../../../electron/core/images/image-header';
import type { ThumbnailAnswer } from '../../../electron/ports/image-engine';
import * as made from './image-fixtures';
import { usePageStand } from './page-setup';

const THUMBNAIL = 384;
let fileNumber = 0;
// Far above any case here (the slowest takes about a second), far below the test's own.
const page = usePageStand(40_000);

async function thumbnailOf(fixture: made.Fixture): Promise<ThumbnailAnswer> {
  fileNumber += 1;
  const file = join(page.setup().dir, `image-${fileNumber}`);
  await writeFile(file, fixture.bytes);
  return page.stand().engine.thumbnail({ file, header: fixture.header, thumbnailSize: THUMBNAIL });
}

/** What sharp (libvips, failing on warnings as Pictor used it) says of the same bytes. */
async function sharpRefuses(bytes: Buffer): Promise<boolean> {
  return sharp(bytes, { failOn: 'warning' })
    .raw()
    .toBuffer()
    .then(
      () => false,
      () => true,
    );
}

/** The thumbnail is a WebP of the oriented size fitted inside 384 px, and it decodes. */
async function expectThumbnail(answer: ThumbnailAnswer, width: number, height: number) {
  expect(answer).toMatchObject({ kind: 'thumbnail', width, height });
  if (answer.kind !== 'thumbnail') return;
  const scale = Math.min(1, THUMBNAIL / Math.max(width, height));
  const decoded = await sharp(answer.webp).raw().toBuffer({ resolveWithObject: true });
  expect(Buffer.from(answer.webp.subarray(0, 4)).toString('latin1')).toBe('RIFF');
  expect((await sharp(answer.webp).metadata()).format).toBe('webp');
  expect(decoded.info).toMatchObject({
    width: Math.round(width * scale),
    height: Math.round(height * scale),
  });
}

describe('broken files', () => {
  /** Each is refused by sharp too: the class of broken files the service path must refuse. */
  const refused = async (): Promise<made.Fixture[]> => {
    const raw = await made.photoPixels(320, 240);
    const [png, jpeg, webp] = await Promise.all(
      (['png', 'jpeg', 'webp'] as const).map((format) => made.encode(raw, 320, 240, format)),
    );
    const header = (format: 'png' | 'jpeg' | 'webp') => made.headerOf(format, 320, 240);
    return [
      ...(await made.truncatedFiles(320, 240)),
      { name: 'png with flipped bytes', bytes: made.flipped(png!), header: header('png') },
      { name: 'jpeg with flipped bytes', bytes: made.flipped(jpeg!), header: header('jpeg') },
      {
        name: 'webp with flipped bytes in its frame header',
        bytes: made.flippedAt(webp!, 30, 16),
        header: header('webp'),
      },
      made.bogusHuffmanJpeg(jpeg!, header('jpeg')),
    ];
  };

  it('refuses each file of the broken table (cut at 60 %, 100 bytes short, flipped, corrupted)', async () => {
    const fixtures = await refused();
    expect(fixtures).toHaveLength(10);
    for (const fixture of fixtures) {
      expect(await sharpRefuses(fixture.bytes), `sharp on ${fixture.name}`).toBe(true);
      const answer = await thumbnailOf(fixture);
      expect(answer.kind, fixture.name).toBe('undecodable');
    }
  });

  it('draws damage no decoder can see as a browser draws it: a thumbnail of the right size', async () => {
    const raw = await made.photoPixels(320, 240);
    const webp = await made.encode(raw, 320, 240, 'webp');
    // Lossy WebP has no checksum over its pixels; sharp decodes this one too.
    const flippedWebp = {
      name: 'webp',
      bytes: made.flipped(webp),
      header: made.headerOf('webp', 320, 240),
    };
    expect(await sharpRefuses(flippedWebp.bytes)).toBe(false);
    await expectThumbnail(await thumbnailOf(flippedWebp), 320, 240);
    // Chromium reads libjpeg's "premature end of data segment" as a warning and fills the rest
    // with grey; sharp failing on warnings refuses it.
    const early = await made.corruptedJpeg(320, 240);
    expect(await sharpRefuses(early.bytes)).toBe(true);
    await expectThumbnail(await thumbnailOf(early), 320, 240);
  });
});

describe('hostile images', () => {
  it('refuses pixel bombs of every format, even when the job was told a small size', async () => {
    const bombs: made.Fixture[] = [
      {
        name: 'png 30000×30000',
        bytes: await made.pngDeclaring(30_000, 30_000),
        header: made.headerOf('png', 30_000, 30_000),
      },
      {
        name: 'png 30000×30000, job told 100×100',
        bytes: await made.pngDeclaring(30_000, 30_000),
        header: made.headerOf('png', 100, 100),
      },
      {
        name: 'jpeg 30000×30000',
        bytes: await made.jpegDeclaring(30_000, 30_000),
        header: made.headerOf('jpeg', 30_000, 30_000),
      },
      {
        name: 'webp canvas 16383×16383',
        bytes: made.webpDeclaring(16_383, 16_383),
        header: made.headerOf('webp', 16_383, 16_383),
      },
    ];
    for (const bomb of bombs) {
      const answer = await thumbnailOf(bomb);
      expect(answer.kind, bomb.name).toBe('undecodable');
    }
  });

  it('refuses a header that lies about the size, smaller or larger than the pixels', async () => {
    const real = await made.encode(await made.photoPixels(256, 256), 256, 256, 'png');
    for (const [width, height] of [
      [64, 64],
      [512, 512],
    ] as const) {
      const answer = await thumbnailOf({
        name: `${width}×${height}`,
        bytes: await made.pngDeclaring(width, height, real),
        header: made.headerOf('png', width, height),
      });
      expect(answer.kind, `IHDR ${width}×${height}`).toBe('undecodable');
    }
  });

  it('inflates a zlib bomb only as far as its header says, in time', async () => {
    // 1000×1000 grey whose IDAT inflates to 64 MB: the decoder stops at the 1 MB the rows need.
    const small = made.zlibBombPng(1000, 1000, 64_000_000);
    expect(small.length).toBeLessThan(200_000);
    await expectThumbnail(
      await thumbnailOf({ name: 'bomb', bytes: small, header: made.headerOf('png', 1000, 1000) }),
      1000,
      1000,
    );
    // 36 million pixels from 36 KB: within the limits, so a correct thumbnail.
    const large = made.zlibBombPng(6000, 6000, 6001 * 6000);
    expect(large.length).toBeLessThan(100_000);
    await expectThumbnail(
      await thumbnailOf({ name: 'bomb', bytes: large, header: made.headerOf('png', 6000, 6000) }),
      6000,
      6000,
    );
  });

  it('thumbnails an animated WebP (its first frame), a CMYK JPEG and a 16-bit PNG', async () => {
    const animated = await made.animatedWebp(200, 100);
    expect((await sharp(animated, { animated: true }).metadata()).pages).toBe(2);
    const answer = await thumbnailOf({
      name: 'animated',
      bytes: animated,
      header: made.headerOf('webp', 200, 100),
    });
    await expectThumbnail(answer, 200, 100);
    if (answer.kind === 'thumbnail') {
      const { dominant } = await sharp(answer.webp).stats();
      expect(dominant.r).toBeGreaterThan(200);
      expect(dominant.b).toBeLessThan(60);
    }
    const cmyk = await made.cmykJpeg(300, 200);
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    await expectThumbnail(
      await thumbnailOf({ name: 'cmyk', bytes: cmyk, header: made.headerOf('jpeg', 300, 200) }),
      300,
      200,
    );
    const deep = await made.sixteenBitPng(300, 200);
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    await expectThumbnail(
      await thumbnailOf({ name: '16-bit', bytes: deep, header: made.headerOf('png', 300, 200) }),
      300,
      200,
    );
  });

  it.each([
    ['JPEG', 'jpeg', made.rotatedJpeg],
    ['PNG (eXIf)', 'png', made.rotatedPng],
  ] as const)(
    'applies EXIF orientation 6 as main reads it: a 400×300 %s decodes and thumbnails as 300×400',
    async (_name, format, build) => {
      const rotated = await build(400, 300);
      expect((await sharp(rotated).metadata()).orientation).toBe(6);
      // The header main's own check reads, as the download hands it to the engine.
      const checked = await checkHeaderOfBytes(rotated, format, 100_000_000);
      if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.refusal)}`);
      const { header } = checked;
      expect(header).toMatchObject({ orientation: 6, orientedWidth: 300, orientedHeight: 400 });
      const answer = await thumbnailOf({ name: 'exif', bytes: rotated, header });
      await expectThumbnail(answer, 300, 400);
      if (answer.kind === 'thumbnail') {
        // Turned clockwise: the stored left half (red) is on top.
        // stats() reads its input, not the pipeline's output: extract to a buffer first.
        const half = async (top: number) =>
          sharp(
            await sharp(answer.webp).extract({ left: 0, top, width: 288, height: 192 }).toBuffer(),
          ).stats();
        expect((await half(0)).channels[0]!.mean).toBeGreaterThan(200);
        expect((await half(192)).channels[2]!.mean).toBeGreaterThan(200);
      }
      // Told the stored size as the oriented one, the page refuses: the sizes must agree.
      const unturned = made.headerOf(format, 400, 300);
      const refused = await thumbnailOf({ name: 'exif', bytes: rotated, header: unturned });
      expect(refused.kind).toBe('undecodable');
    },
  );

  it('ran every case above in one page that never crashed or restarted', () => {
    expect(page.stand().starts()).toBe(1);
    expect(page.stand().page()?.isClosed()).toBe(false);
  });
});
