/**
 * How many parts the key search's walk makes of a file (metadata-parts.ts' MAX_PARTS): a PNG of
 * 1,000,000 empty tEXt chunks (12 MB; a 64 MB file may hold 5 million) made a part object and a
 * Buffer view per chunk, ~0.9 s of CPU in the main process for each walk, and the outline read
 * it a read or two a chunk. Now a walk stops at MAX_PARTS, far more than a real encoder writes:
 * the rest is one part, unsearched, taken as a key's, so such a file is refused, never kept; the
 * outline stops there too, its small reads served from one window. The class: PNG chunks, JPEG
 * markers (segments, fill bytes), WebP chunks (in a frame too). Counted, not timed: the parts
 * built, the bytes searched, the outline's reads.
 */
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { pngChunk } from '../../../../electron/core/gallery/metadata/png-meta';
import {
  type ImageKind,
  metadataCarriesKey,
  metadataOutline,
  withoutKeyMetadata,
} from '../../../../electron/core/images';
import { MAX_PARTS, metadataParts } from '../../../../electron/core/images/metadata-parts';
import { offlineDir } from '../../../support/offline-core';

const KEY = 'sk-parts-0123456789abcdefghij';
const scrub = (text: string) => text.replaceAll(KEY, '[redacted]');
/**
 * Twice the bound: as far past it as a million (the walk stops at MAX_PARTS either way), at a
 * seventh of the suite's CPU (about 8 s for the million cases).
 */
const MANY = 2 * MAX_PARTS;

/** `piece` `count` times over. */
const repeated = (piece: Buffer, count: number) => Buffer.alloc(piece.length * count, piece);

const emptyText = pngChunk('tEXt', Buffer.alloc(0));

let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
beforeAll(async () => {
  const image = sharp({ create: { width: 8, height: 6, channels: 3, background: '#369' } });
  [png, jpeg, webp] = await Promise.all([
    image.clone().png().toBuffer(),
    image.clone().jpeg().toBuffer(),
    image.clone().webp().toBuffer(),
  ]);
});

/** `png` with `chunks` before its IEND. */
const pngWith = (...chunks: Buffer[]) =>
  Buffer.concat([png.subarray(0, png.length - 12), ...chunks, png.subarray(png.length - 12)]);

/** `jpeg` with `segments` right after its SOI. */
const jpegWith = (...segments: Buffer[]) =>
  Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);

/** `webp` with `chunks` before its image chunk, its RIFF size mended. */
function webpWith(...chunks: Buffer[]): Buffer {
  const out = Buffer.concat([webp.subarray(0, 12), ...chunks, webp.subarray(12)]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

const webpChunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
};

/** The bytes the search reads of `bytes`' parts. */
const searchedBytes = (bytes: Buffer, kind: ImageKind) =>
  metadataParts(bytes, kind).reduce(
    (sum, each) => sum + each.searched.reduce((n, piece) => n + piece.length, 0),
    0,
  );

describe('a file of twice MAX_PARTS tiny parts', () => {
  const crafted: Record<string, () => { bytes: Buffer; kind: ImageKind }> = {
    'PNG empty tEXt chunks': () => ({ bytes: pngWith(repeated(emptyText, MANY)), kind: 'png' }),
    'JPEG empty COM segments': () => ({
      bytes: jpegWith(repeated(Buffer.from([0xff, 0xfe, 0, 2]), MANY)),
      kind: 'jpeg',
    }),
    'JPEG fill bytes': () => ({
      bytes: jpegWith(Buffer.alloc(MANY, 0xff), Buffer.from([0xfe, 0, 2])),
      kind: 'jpeg',
    }),
    'WebP empty chunks': () => ({
      bytes: webpWith(repeated(webpChunk('XTRA', Buffer.alloc(0)), MANY)),
      kind: 'webp',
    }),
    'WebP empty chunks in an animation frame': () => ({
      bytes: webpWith(
        webpChunk(
          'ANMF',
          Buffer.concat([Buffer.alloc(16), repeated(webpChunk('XTRA', Buffer.alloc(0)), MANY)]),
        ),
      ),
      kind: 'webp',
    }),
  };

  it.each(Object.keys(crafted))(
    '%s: at most MAX_PARTS parts built, their bytes searched; never kept',
    (name) => {
      const { bytes, kind } = crafted[name]!();
      const parts = metadataParts(bytes, kind);
      expect(parts.length).toBeLessThanOrEqual(MAX_PARTS + 1);
      // The parts still cover the file end to end, the rest one part taken as a key's.
      expect(parts[0]?.start).toBe(0);
      expect(parts.at(-1)).toMatchObject({ end: bytes.length, removable: false, unread: true });
      parts.slice(1).forEach((each, at) => expect(each.start).toBe(parts[at]?.end));
      expect(searchedBytes(bytes, kind)).toBeLessThanOrEqual(MAX_PARTS * 24);
      expect(metadataCarriesKey(bytes, kind, scrub)).toBe(true);
      expect(withoutKeyMetadata(bytes, kind, scrub).kind).toBe('carried');
    },
  );

  it('with a key in its last chunk but one: never kept with it', () => {
    const chunks = repeated(emptyText, MANY);
    const keyed = pngChunk('tEXt', Buffer.from(`Comment\0${KEY}`, 'latin1'));
    const bytes = pngWith(
      chunks.subarray(0, (MANY - 2) * 12),
      keyed,
      chunks.subarray((MANY - 2) * 12),
    );
    expect(metadataCarriesKey(bytes, 'png', scrub)).toBe(true);
    const removal = withoutKeyMetadata(bytes, 'png', scrub);
    expect(removal.kind).not.toBe('clean');
    if (removal.kind === 'removed') expect(removal.bytes.includes(KEY)).toBe(false);
  });

  it('is no outline: it is read a bounded number of times, then whole by the caller', async () => {
    const folder = await offlineDir();
    const file = join(folder, 'chunks.png');
    // 2.4 MB of outline: within the outline's byte bound, so only the part bound stops it.
    await writeFile(file, pngWith(repeated(emptyText, 200_000)));
    const handle = await open(file, 'r');
    try {
      const reads = vi.spyOn(handle, 'read');
      const { size } = await handle.stat();
      expect(await metadataOutline(handle, size, 'png', 8 * 1024 * 1024)).toBeNull();
      // A read per 4 KiB window of heads (~200 here), not two a chunk (~130,000).
      expect(reads.mock.calls.length).toBeLessThan(1_000);
    } finally {
      await handle.close();
    }
  });
});

describe('a chunk declaring more than the file holds', () => {
  it.each([
    ['png', 0xffff_fff0],
    ['png', 5_000],
    ['webp', 0xffff_fff0],
  ] as const)('%s declaring %i bytes: read no further than the file', async (kind, declared) => {
    const text = Buffer.from(`Comment\0${KEY}`, 'latin1');
    const head = Buffer.alloc(8);
    if (kind === 'png') {
      head.writeUInt32BE(declared, 0);
      head.write('tEXt', 4, 'latin1');
    } else {
      head.write('XTRA', 0, 'latin1');
      head.writeUInt32LE(declared, 4);
    }
    const bytes = (kind === 'png' ? pngWith : webpWith)(Buffer.concat([head, text]));
    const file = join(await offlineDir(), `declared.${kind}`);
    await writeFile(file, bytes);
    const handle = await open(file, 'r');
    try {
      const reads = vi.spyOn(handle, 'read');
      const outline = await metadataOutline(handle, bytes.length, kind, 8 * 1024 * 1024);
      const asked = reads.mock.calls.map(([buffer]) =>
        ArrayBuffer.isView(buffer) ? buffer.byteLength : 0,
      );
      expect(Math.max(...asked)).toBeLessThanOrEqual(Math.max(bytes.length, 4 * 1024));
      // What it read is what the file holds: the key in the cut chunk is searched.
      expect(outline).not.toBeNull();
      if (outline) expect(metadataCarriesKey(outline, kind, scrub)).toBe(true);
    } finally {
      await handle.close();
    }
  });
});

describe('an ordinary file’s outline, read through the window', () => {
  it.each(['png', 'jpeg', 'webp'] as const)(
    '%s: the search reads the same bytes in it as in the file, its pixels’ data stepped over',
    async (kind) => {
      const note = Buffer.from(`a note ${'x'.repeat(5_000)} end`, 'latin1');
      const files = {
        png: () =>
          pngWith(
            ...Array.from({ length: 40 }, (_, n) =>
              pngChunk(n ? 'tEXt' : 'zTXt', note.subarray(n * 9)),
            ),
          ),
        jpeg: () =>
          jpegWith(
            ...Array.from({ length: 40 }, (_, n) => {
              const data = note.subarray(n * 9, n * 9 + 300 + n * 50);
              const head = Buffer.from([0xff, 0xfe, 0, 0]);
              head.writeUInt16BE(data.length + 2, 2);
              return Buffer.concat([head, data]);
            }),
          ),
        webp: () =>
          webpWith(
            ...Array.from({ length: 40 }, (_, n) => webpChunk('XTRA', note.subarray(n * 9))),
          ),
      };
      const bytes = files[kind]();
      const file = join(await offlineDir(), `note.${kind}`);
      await writeFile(file, bytes);
      const handle = await open(file, 'r');
      try {
        const outline = await metadataOutline(handle, bytes.length, kind, 8 * 1024 * 1024);
        // Its parts but the pixels' (the outline keeps their heads, lengths set to 0), searched alike.
        const pixels = (of: Buffer, at: number) =>
          kind === 'jpeg'
            ? of[at + 1] === 0xda
            : ['IDAT', 'fdAT', 'VP8 ', 'VP8L', 'ALPH'].includes(
                of.toString('latin1', at + (kind === 'png' ? 4 : 0), at + (kind === 'png' ? 8 : 4)),
              );
        const searched = (of: Buffer) =>
          Buffer.concat(
            metadataParts(of, kind)
              .filter((each) => !pixels(of, each.start))
              .flatMap((each) => each.searched),
          );
        expect(outline).not.toBeNull();
        if (outline) expect(searched(outline).equals(searched(bytes))).toBe(true);
      } finally {
        await handle.close();
      }
    },
  );
});

describe('a real encoder’s PNG of many IDAT chunks', () => {
  /** `png`'s zlib stream re-cut into IDAT chunks so the file walks as `total` parts. */
  async function manyIdats(total: number): Promise<Buffer> {
    const noise = Buffer.alloc(256 * 256 * 3);
    for (let at = 0; at < noise.length; at += 1) noise[at] = (at * 2_654_435_761) >>> 24;
    const real = await sharp(noise, { raw: { width: 256, height: 256, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 8; at + 12 <= real.length;) {
      const length = real.readUInt32BE(at);
      chunks.push({
        type: real.toString('latin1', at + 4, at + 8),
        data: real.subarray(at + 8, at + 8 + length),
      });
      at += 12 + length;
    }
    const stream = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
    const others = chunks.filter((c) => c.type !== 'IDAT');
    const count = total - 1 - others.length;
    const size = Math.ceil(stream.length / count);
    const idats = Array.from({ length: count }, (_, n) =>
      pngChunk('IDAT', stream.subarray(n * size, (n + 1) * size)),
    );
    const end = others.findIndex((c) => c.type === 'IEND');
    return Buffer.concat([
      real.subarray(0, 8),
      ...others.slice(0, end).map((c) => pngChunk(c.type, c.data)),
      ...idats,
      ...others.slice(end).map((c) => pngChunk(c.type, c.data)),
    ]);
  }

  it('is kept as it is up to the bound, and left byte-identical by a key’s removal', async () => {
    const file = await manyIdats(MAX_PARTS - 1);
    expect(metadataParts(file, 'png')).toHaveLength(MAX_PARTS - 1);
    expect(metadataCarriesKey(file, 'png', scrub)).toBe(false);
    expect(withoutKeyMetadata(file, 'png', scrub).kind).toBe('clean');
    const keyed = Buffer.concat([
      file.subarray(0, file.length - 12),
      pngChunk('tEXt', Buffer.from(`Comment\0${KEY}`, 'latin1')),
      file.subarray(file.length - 12),
    ]);
    expect(metadataParts(keyed, 'png')).toHaveLength(MAX_PARTS);
    const removal = withoutKeyMetadata(keyed, 'png', scrub);
    expect(removal).toMatchObject({ kind: 'removed', credentials: false });
    if (removal.kind === 'removed') expect(removal.bytes.equals(file)).toBe(true);
    const pixels = await sharp(file).raw().toBuffer();
    expect(pixels).toHaveLength(256 * 256 * 3);
  });
});
