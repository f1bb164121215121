/**
 * An archive whose local headers lie where its central directory looks whole. The overlap check
 * (zip-source.ts) reads where each entry's data ends from the central directory; where its data
 * begins is the local header's to say (its own name and extra lengths). A local header claiming
 * an extra field it does not hold moves its entry's data into the next entry's: two entries, one
 * stretch of bytes, the overlapping zip bomb's trick past a check of the directory alone.
 * Real archives on disk, read by the real source.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveRefusedError } from '../../../electron/core/library/archive/archive-errors';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../electron/core/library/archive/archive-limits';
import { openZipSource } from '../../../electron/core/library/archive/zip-source';
import { testFolder } from '../../support/per-test';
import { craftZip, type CraftedEntry } from '../../unit/core/library/archive/crafted-zip';

const LOCAL_HEADER = 30;

/** Reads a source file whole, or the error its opening or reading gives. */
async function readWhole(open: () => Promise<NodeJS.ReadableStream>): Promise<Buffer | unknown> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await open()) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (error) {
    return error;
  }
}

const SECOND = 'a/second.png';

/**
 * Two entries stored one after the other, `size` bytes each (ones, then twos); the first's local
 * header claims an extra field of `extra` bytes (none written).
 */
function pair(size: number, extra = 0): Buffer {
  const entries: CraftedEntry[] = [
    { name: 'a/first.png', data: Buffer.alloc(size, 1), method: 0, localExtraLength: extra },
    { name: SECOND, data: Buffer.alloc(size, 2), method: 0 },
  ];
  return craftZip(entries);
}

async function sourceOf(bytes: Buffer) {
  const file = join(await testFolder('local-headers'), 'crafted.zip');
  await writeFile(file, bytes);
  return openZipSource(file, bytes.length, DEFAULT_ARCHIVE_LIMITS);
}

describe('an archive entry whose local header moves its data', () => {
  it('into the next entry’s data: refused, never read as the other’s bytes', async () => {
    const size = 4000;
    // The first's data begins where the second's does: past its own bytes, the second's header
    // and name.
    const source = await sourceOf(pair(size, size + LOCAL_HEADER + Buffer.byteLength(SECOND)));
    try {
      const [first, second] = source.files.map((file) => () => file.open());
      expect(await readWhole(second as () => Promise<NodeJS.ReadableStream>)).toEqual(
        Buffer.alloc(size, 2),
      );
      const read = await readWhole(first as () => Promise<NodeJS.ReadableStream>);
      expect(read).toBeInstanceOf(ArchiveRefusedError);
      expect(String(read)).toMatch(/same data/);
    } finally {
      await source.close();
    }
  });

  it('nowhere (the local header says its own name only): each read as it is (control)', async () => {
    const size = 4000;
    const source = await sourceOf(pair(size));
    try {
      const read = await Promise.all(source.files.map((file) => readWhole(() => file.open())));
      expect(read).toEqual([Buffer.alloc(size, 1), Buffer.alloc(size, 2)]);
    } finally {
      await source.close();
    }
  });
});
