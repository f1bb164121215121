/**
 * What a PNG's compressed chunks inflate to, together: one kilobyte of zTXt inflates to a
 * megabyte, and each chunk was inflated within its own 1 MiB, every one of them, before the
 * search's 4 MiB bound was looked at: a 640 KB file of 600 such chunks held ~800 MB and took
 * 1.5 s of CPU in the main process, and a file of the 64 MB an image may be, tens of gigabytes.
 * Now the file's chunks share one budget, the search's own bound (metadata-parts.ts): a chunk past
 * it is `unread`, not inflated, which counts as carrying a key (left out of a kept file), as a file
 * past the bound always did. An ordinary file's few compressed chunks are read as before.
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { pngChunk } from '../../../../electron/core/gallery/metadata/png-meta';
import { metadataCarriesKey, withoutKeyMetadata } from '../../../../electron/core/images';
import { metadataParts } from '../../../../electron/core/images/metadata-parts';

/** The search's bound on what all of a file's compressed chunks inflate to. */
const BUDGET = 4 * 1024 * 1024;
const KEY = 'sk-budget-0123456789abcdefghij';
const scrub = (text: string) => text.replaceAll(KEY, '[redacted]');

const zTXt = (text: Buffer | string) =>
  pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), deflateSync(text)]));

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#369' } })
    .png()
    .toBuffer();
});

/** `png` with `chunks` before its IEND. */
const withChunks = (chunks: readonly Buffer[]) =>
  Buffer.concat([png.subarray(0, png.length - 12), ...chunks, png.subarray(png.length - 12)]);

/** Bytes the search reads beyond the file's own: what its compressed chunks inflated to. */
function inflatedBytes(bytes: Buffer): number {
  const parts = metadataParts(bytes, 'png');
  return parts.reduce(
    (sum, each) => sum + each.searched.slice(1).reduce((n, b) => n + b.length, 0),
    0,
  );
}

describe('a PNG’s compressed chunks together', () => {
  it('inflate within one budget, however many there are; the rest count as carrying a key', async () => {
    const bomb = zTXt(Buffer.alloc(1024 * 1024 - 1, 'a'));
    expect(bomb.length).toBeLessThan(1_200);
    const bytes = withChunks(Array.from({ length: 600 }, () => bomb));
    expect(bytes.length).toBeLessThan(1_000_000);
    expect(inflatedBytes(bytes)).toBeLessThanOrEqual(BUDGET);
    const parts = metadataParts(bytes, 'png');
    expect(parts.filter((each) => each.unread).length).toBeGreaterThanOrEqual(600 - 4);
    expect(metadataCarriesKey(bytes, 'png', scrub)).toBe(true);
    const removal = withoutKeyMetadata(bytes, 'png', scrub);
    expect(removal.kind).toBe('removed');
    if (removal.kind !== 'removed') return;
    expect(removal.bytes.includes(Buffer.from('zTXt', 'latin1'))).toBe(false);
    const pixels = (of: Buffer) => sharp(of).raw().toBuffer();
    expect((await pixels(removal.bytes)).equals(await pixels(png))).toBe(true);
  });

  it('are read as before in an ordinary file: a key in the last one found, none kept otherwise', () => {
    const plain = Array.from({ length: 20 }, (_, at) => zTXt(`comment ${at} `.repeat(1_000)));
    expect(withoutKeyMetadata(withChunks(plain), 'png', scrub).kind).toBe('clean');
    const keyed = withChunks([...plain, zTXt(`note ${KEY} end`)]);
    expect(metadataParts(keyed, 'png').some((each) => each.unread)).toBe(false);
    expect(metadataCarriesKey(keyed, 'png', scrub)).toBe(true);
    const removal = withoutKeyMetadata(keyed, 'png', scrub);
    expect(removal.kind).toBe('removed');
    if (removal.kind === 'removed') expect(inflatedBytes(removal.bytes)).toBeGreaterThan(200_000);
  });
});
