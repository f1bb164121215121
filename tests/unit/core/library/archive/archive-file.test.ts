/**
 * The archive's own reader (archive-file.ts): reads take turns in the order asked; a range stream
 * destroyed while its read waits leaves the queue and closes once its running read settled;
 * closing the archive cancels what waits, waits for what runs, and only then closes the file.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveFile } from '../../../../../electron/core/library/archive/archive-file';
import { openDescriptorsUnder } from '../../../../support/open-descriptors';
import { TempFolders } from '../../../../support/temp-folders';

const KiB = 1024;
const folders = new TempFolders();

afterEach(async () => {
  await folders.removeAll();
});

async function archiveOf(bytes: Buffer): Promise<{ folder: string; file: ArchiveFile }> {
  const folder = await folders.make('archive-file');
  await writeFile(join(folder, 'a.zip'), bytes);
  return { folder, file: await ArchiveFile.open(join(folder, 'a.zip')) };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

describe('the archive’s reader', () => {
  it('gives each range its bytes, several read at once, and closes the file', async () => {
    const bytes = randomBytes(512 * KiB);
    const { folder, file } = await archiveOf(bytes);
    const ranges = [0, 1, 2, 3].map((i) => [i * 128 * KiB + 7, (i + 1) * 128 * KiB - 3] as const);
    const read = await Promise.all(
      ranges.map(([start, end]) => readAll(file._readStreamForRange(start, end))),
    );
    read.forEach((got, i) => expect(got.equals(bytes.subarray(...ranges[i]!))).toBe(true));
    expect(openDescriptorsUnder(folder)).toBe(1);
    await file.closeFile();
    expect(openDescriptorsUnder(folder)).toBe(0);
  });

  it('lets streams be destroyed while their reads wait: nothing is thrown, the queue goes on, the file closes', async () => {
    const { folder, file } = await archiveOf(randomBytes(1024 * KiB));
    const streams = [0, 1, 2, 3].map((i) =>
      file._readStreamForRange(i * 256 * KiB, (i + 1) * 256 * KiB),
    );
    const errors: unknown[] = [];
    const closed = streams.map((stream) => once(stream, 'close'));
    for (const stream of streams) {
      stream.on('error', (error) => errors.push(error));
      // Each asks for its next read as its first chunk arrives, and is destroyed right then.
      stream.once('data', () => stream.destroy());
    }
    await Promise.all(closed);
    expect(errors).toEqual([]);
    // Nothing jammed the queue: a read asked now is answered.
    const after = file.queueRead(Buffer.alloc(16), 0, 16, 0);
    await expect(after.result).resolves.toBe(16);
    await file.closeFile();
    expect(openDescriptorsUnder(folder)).toBe(0);
  });

  it('closing cancels the reads that wait, lets the running one finish, then closes the file', async () => {
    const { folder, file } = await archiveOf(randomBytes(64 * KiB));
    const reads = [0, 1, 2].map((i) => file.queueRead(Buffer.alloc(KiB), 0, KiB, i * KiB));
    const closing = file.closeFile();
    await expect(reads[0]!.result).resolves.toBe(KiB);
    await expect(reads[1]!.result).rejects.toThrow('The archive is closed.');
    await expect(reads[2]!.result).rejects.toThrow('The archive is closed.');
    await closing;
    expect(openDescriptorsUnder(folder)).toBe(0);
    await expect(file.queueRead(Buffer.alloc(1), 0, 1, 0).result).rejects.toThrow(
      'The archive is closed.',
    );
  });
});
