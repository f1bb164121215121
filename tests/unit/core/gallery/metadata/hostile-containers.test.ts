/**
 * The image host is hostile: a file whose container lies (truncated chunks, huge declared
 * lengths, bogus CRCs, a RIFF size that does not match) is refused with a reason and left
 * exactly as it was; nothing else is ever thrown, and a walk does work in proportion to the file
 * (reads counted, not timed: the verdict holds on a machine under any load).
 */
import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerError } from '../../../../../electron/core/gallery/metadata/container';
import {
  embedProvenanceInBuffer,
  embedProvenanceInFile,
} from '../../../../../electron/core/gallery/metadata/embed';
import { readImageProvenance } from '../../../../../electron/core/gallery/metadata/read';
import { bufferReader } from '../../../../../electron/core/gallery/metadata/range-reader';
import type { ImageKind } from '../../../../../electron/core/images/image-sniff';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { removeFolder, tempFolder } from '../../../../support/temp-folders';

const images = new Map<string, Buffer>();
let root: string;
beforeAll(async () => {
  root = await tempFolder('hostile');
  await mkdir(join(root, '.pictor-tmp'));
  for (const encoding of ENCODINGS) images.set(encoding.name, await makeEncoded(encoding, 33, 21));
});
afterAll(async () => {
  await removeFolder(root);
});

const image = (name: string) => Buffer.from(images.get(name)!);

/** Reads the provenance of `bytes`, counting the reads the walk asks for and the bytes they cover. */
async function countedRead(bytes: Uint8Array, kind: ImageKind) {
  const reader = bufferReader(bytes);
  let calls = 0;
  let read = 0;
  const result = await readImageProvenance(
    {
      size: reader.size,
      bytes: (offset, length) => {
        calls += 1;
        read += length;
        return reader.bytes(offset, length);
      },
    },
    kind,
  );
  return { result, calls, read };
}

async function refused(bytes: Buffer, kind: ImageKind, reason: RegExp): Promise<void> {
  await expect(embedProvenanceInBuffer(bytes, kind, sampleProvenance())).rejects.toThrow(
    ContainerError,
  );
  await expect(embedProvenanceInBuffer(bytes, kind, sampleProvenance())).rejects.toThrow(reason);
  const read = await readImageProvenance(bytes, kind);
  expect(read.ok).toBe(false);
}

describe('PNG', () => {
  it('refuses a bogus CRC, a huge declared length, a truncated chunk, a missing IEND', async () => {
    const crc = image('PNG');
    crc.writeUInt8(crc.readUInt8(29) ^ 0xff, 29); // IHDR's CRC
    await refused(crc, 'png', /fails its checksum/);
    const huge = image('PNG');
    huge.writeUInt32BE(0x7fffffff, 33); // the chunk after IHDR
    await refused(huge, 'png', /ends inside its/);
    const impossible = image('PNG');
    impossible.writeUInt32BE(0xfffffff0, 33);
    await refused(impossible, 'png', /impossible length/);
    await refused(image('PNG').subarray(0, 60), 'png', /ends inside/);
    await refused(
      image('PNG').subarray(0, image('PNG').length - 12),
      'png',
      /ends inside its chunk header/,
    );
  });
});

describe('PNG with a flood of chunks', () => {
  /** `count` valid private ancillary chunks (one byte each) between IHDR and the rest. */
  function flooded(count: number): Buffer {
    const one = Buffer.from([0, 0, 0, 1, 0x70, 0x72, 0x56, 0x74, 0x2a, 0, 0, 0, 0]);
    one.writeUInt32BE(crc32(one.subarray(4, 9)), 9);
    const png = image('PNG');
    return Buffer.concat([
      png.subarray(0, 33),
      Buffer.alloc(13 * count).fill(one),
      png.subarray(33),
    ]);
  }

  it('walks 150,000 chunks a header at a time, and refuses 250,000', async () => {
    const flood = flooded(150_000);
    const edited = await embedProvenanceInBuffer(flood, 'png', sampleProvenance());
    expect((await readImageProvenance(edited, 'png')).ok).toBe(true);
    // The walk over every chunk: a few reads per chunk and each byte about once (3 and 1.3×
    // measured), never a walk that starts again per chunk.
    const { calls, read } = await countedRead(flood, 'png');
    expect(calls).toBeLessThanOrEqual(4 * 150_000);
    expect(read).toBeLessThanOrEqual(2 * flood.length);
    await refused(flooded(250_000), 'png', /too many chunks/);
  });
});

describe('JPEG', () => {
  it('refuses a segment longer than the file, a length below 2, a file with no scan', async () => {
    const jpeg = image('JPEG');
    const long = Buffer.from(jpeg);
    long.writeUInt16BE(0xffff, 4); // the first segment's length
    await refused(long, 'jpeg', /ends inside its segment/);
    const short = Buffer.from(jpeg);
    short.writeUInt16BE(1, 4);
    await refused(short, 'jpeg', /impossible length/);
    await refused(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'jpeg', /no image data/);
    await refused(Buffer.from([0xff, 0xd8, 0x00, 0x00]), 'jpeg', /marker/);
  });
});

describe('WebP', () => {
  it('refuses a RIFF size that lies either way and a chunk running past the end', async () => {
    const bigger = image('WebP lossy');
    bigger.writeUInt32LE(bigger.readUInt32LE(4) + 2, 4);
    await refused(bigger, 'webp', /does not match/);
    const smaller = image('WebP lossless');
    smaller.writeUInt32LE(smaller.readUInt32LE(4) - 2, 4);
    await refused(smaller, 'webp', /does not match/);
    const chunk = image('WebP lossy');
    chunk.writeUInt32LE(0xfffffff0, 16); // the VP8 chunk's size
    await refused(chunk, 'webp', /ends inside/);
    const header = image('WebP lossy');
    header[20 + 3] = 0; // the VP8 start code
    await refused(header, 'webp', /valid header/);
  });
});

describe('a refused file on disk', () => {
  it('is left byte for byte as it was, with the reason, and no other file is written', async () => {
    const bytes = image('PNG');
    bytes.writeUInt8(bytes.readUInt8(40) ^ 0x01, 40); // the chunk after IHDR: its CRC fails
    const file = join(root, '.pictor-tmp', 'download.part');
    await writeFile(file, bytes);
    const result = await embedProvenanceInFile(file, 'png', sampleProvenance(), {
      root,
      maxBytes: 1024 * 1024,
    });
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/checksum/) });
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await readdir(join(root, '.pictor-tmp'))).toEqual(['download.part']);
    expect(await readdir(root)).toEqual(['.pictor-tmp']);
    await rm(file);
  });

  it('is not grown past the size cap', async () => {
    const bytes = image('JPEG');
    const file = join(root, '.pictor-tmp', 'capped.part');
    await writeFile(file, bytes);
    const result = await embedProvenanceInFile(file, 'jpeg', sampleProvenance(), {
      root,
      maxBytes: bytes.length + 100,
    });
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/size limit/) });
    expect((await readFile(file)).equals(bytes)).toBe(true);
    await rm(file);
  });
});

describe.each(ENCODINGS)('random damage to a $name', (encoding) => {
  it('ends in an edited image or a ContainerError, never anything else', async () => {
    const original = images.get(encoding.name)!;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.nat(original.length),
        async (flips, cut) => {
          const bytes = Buffer.from(original.subarray(0, Math.max(cut, 1)));
          for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
          try {
            const edited = await embedProvenanceInBuffer(bytes, encoding.kind, sampleProvenance());
            expect((await readImageProvenance(edited, encoding.kind)).ok).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(ContainerError);
          }
          // Bounded work whatever the damage: no more reads than bytes, each byte about once.
          const { result, calls, read } = await countedRead(bytes, encoding.kind);
          expect(result.ok).toBe(false);
          expect(calls).toBeLessThanOrEqual(bytes.length + 16);
          expect(read).toBeLessThanOrEqual(2 * bytes.length + 64);
        },
      ),
      { numRuns: 300 },
    );
  });
});
