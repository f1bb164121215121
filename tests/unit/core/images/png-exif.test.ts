/**
 * A PNG's EXIF orientation (core/images/png-header.ts): an eXIf chunk before the first IDAT turns
 * a PNG on screen as APP1 turns a JPEG, in Chromium and in libvips. Real PNGs from sharp (libvips
 * writes the chunk), and the chunk moved, doubled, damaged or oversized by surgery.
 */
import { describe, expect, it } from 'vitest';
import { checkHeaderOfBytes } from '../../../../electron/core/images/image-header';
import { exifBlock } from '../../../support/exif-block';
import * as make from '../../../support/hostile-images';
import { build, chunksOf, type Chunk } from '../../../support/png-chunks';

const LIMIT = 100_000_000;

async function headerOf(bytes: Buffer) {
  const result = await checkHeaderOfBytes(bytes, 'png', LIMIT);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.header;
}

/** eXIf chunk data: TIFF with IFD0's orientation tag. */
const tiffWith = (orientation: number, order: 'II' | 'MM' = 'II') =>
  exifBlock([[0x0112, 3, 1, orientation]], order).subarray(6);

/** A 64×40 PNG with `extra` chunks put just before its first IDAT (or after its last). */
async function pngWith(extra: Chunk[], where: 'before' | 'after' = 'before'): Promise<Buffer> {
  const chunks = chunksOf(await make.png(64, 40)).filter((chunk) => chunk.type !== 'eXIf');
  const at =
    where === 'before'
      ? chunks.findIndex((chunk) => chunk.type === 'IDAT')
      : chunks.findIndex((chunk) => chunk.type === 'IEND');
  return build([...chunks.slice(0, at), ...extra, ...chunks.slice(at)]);
}

describe('PNG EXIF orientation', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'a PNG libvips wrote with orientation %i: sides swap on screen for 5–8 only',
    async (orientation) => {
      const bytes = await make.orientedPng(64, 40, orientation);
      expect(chunksOf(bytes).some((chunk) => chunk.type === 'eXIf')).toBe(true);
      const swapped = orientation >= 5;
      expect(await headerOf(bytes)).toMatchObject({
        width: 64,
        height: 40,
        orientation,
        orientedWidth: swapped ? 40 : 64,
        orientedHeight: swapped ? 64 : 40,
      });
    },
  );

  it('reads big- and little-endian TIFF; a chunk with the Exif prefix some writers add reads as 1, as Chromium shows it', async () => {
    for (const data of [tiffWith(6, 'MM'), tiffWith(6, 'II')]) {
      expect((await headerOf(await pngWith([{ type: 'eXIf', data }]))).orientation).toBe(6);
    }
    // Not TIFF data: Chromium leaves that PNG unturned (own-buffer.test.ts checks they agree).
    const prefixed = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiffWith(6)]);
    expect(await headerOf(await pngWith([{ type: 'eXIf', data: prefixed }]))).toMatchObject({
      orientation: 1,
      orientedWidth: 64,
    });
  });

  it('takes the first eXIf before the image data; one after it, or a second one, does not count', async () => {
    const first = [
      { type: 'eXIf', data: tiffWith(6) },
      { type: 'eXIf', data: tiffWith(8) },
    ];
    expect((await headerOf(await pngWith(first))).orientation).toBe(6);
    const late = await pngWith([{ type: 'eXIf', data: tiffWith(6) }], 'after');
    expect(await headerOf(late)).toMatchObject({ orientation: 1, orientedWidth: 64 });
  });

  it('reads an eXIf whose checksum fails, or that lies, as orientation 1', async () => {
    const good = await pngWith([{ type: 'eXIf', data: tiffWith(6) }]);
    const at = good.indexOf('eXIf', 0, 'latin1');
    const damaged = Buffer.from(good);
    damaged[at + 4 + 12] = (damaged[at + 4 + 12] ?? 0) ^ 0xff; // a byte of the TIFF data: the CRC no longer matches
    expect((await headerOf(damaged)).orientation).toBe(1);
    for (const data of [
      tiffWith(9),
      tiffWith(0),
      Buffer.from('II*\0', 'latin1'),
      Buffer.alloc(0),
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    ]) {
      expect((await headerOf(await pngWith([{ type: 'eXIf', data }]))).orientation).toBe(1);
    }
  });

  it('reads the start of an eXIf larger than any IFD0 needs, and nothing past its budget', async () => {
    // Past the header check's whole read budget (4 MB): read whole, it would be refused.
    // Past the header check's whole read budget (4 MB): read whole, it would be refused.
    const big = Buffer.concat([tiffWith(6), Buffer.alloc(5 * 1024 * 1024, 0x20)]);
    expect((await headerOf(await pngWith([{ type: 'eXIf', data: big }]))).orientation).toBe(6);
  });

  it('keeps an APNG animated beside its eXIf', async () => {
    const apng = chunksOf(await make.apng(64, 40));
    const idat = apng.findIndex((chunk) => chunk.type === 'IDAT');
    const bytes = build([
      ...apng.slice(0, idat),
      { type: 'eXIf', data: tiffWith(6) },
      ...apng.slice(idat),
    ]);
    expect(await headerOf(bytes)).toMatchObject({ animated: true, orientation: 6 });
  });
});
