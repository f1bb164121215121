/**
 * An archive cannot fill the disk with "images" that are not images: junk that compresses well is
 * refused as a whole (each entry above a small floor, and the archive as a whole), a source that
 * would not fit on the library's disk is refused before anything is written, and every imported
 * image passes the check a download passes, its size read from the image, never from its sidecar.
 * The archives are made by yazl, as any ordinary tool would make them.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { ArchiveRefusedError } from '../../../../../electron/core/library/archive/archive-errors';
import { filesUnder } from '../../../../support/files';
import { makeImage } from '../../../../support/gallery-helpers';
import { taskFiles, type CraftedImage, type ExportFile } from './crafted-export';
import { importInto, useLibrary } from './library-fixture';
import { yazlExport } from './yazl-archive';
import { pngChunk } from '../../../../../electron/core/gallery/metadata/png-meta';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const library = useLibrary();

/** `count` tasks whose "image" is `junk()` under a PNG's name and signature, 8×8 by its sidecar. */
async function junkTasks(count: number, junk: () => Buffer): Promise<ExportFile[]> {
  const files: ExportFile[] = [];
  for (let i = 0; i < count; i += 1) {
    const data = Buffer.concat([PNG_SIGNATURE, junk()]);
    files.push(...(await taskFiles({ data, width: 8, height: 8 })).files);
  }
  return files;
}

/** A small, well-formed PNG whose header claims `width`×`height` (a decompression bomb's header). */
function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // 8 bits a sample
  header.writeUInt8(2, 9); // RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(4096))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

async function expectNothingWritten(): Promise<void> {
  expect(await filesUnder(library.root)).toEqual([]);
  expect(library.history.count()).toBe(0);
}

describe('an archive that would fill the disk is refused as a whole', () => {
  it('refuses many highly compressible "images" of junk, each under 1 MiB', async () => {
    const files = await junkTasks(30, () => Buffer.alloc(900 * 1024));
    const archive = await yazlExport(library.dir, files);
    const declared = files.reduce((sum, file) => sum + file.data.length, 0);
    // The attack itself: well under a megabyte that unpacks to over a hundred times more.
    expect(declared / (await stat(archive)).size).toBeGreaterThan(100);
    const outcome = importInto(library, archive);
    await expect(outcome).rejects.toBeInstanceOf(ArchiveRefusedError);
    await expect(outcome).rejects.toThrow(/an entry is compressed too well to be an image/);
    await expectNothingWritten();
  });

  it('refuses junk under the entry ratio that adds up over the whole archive', async () => {
    // Each entry inflates ~40 times (under the entry limit of 100); together, over 20 times.
    const files = await junkTasks(40, () =>
      Buffer.concat([randomBytes(2 * 1024), Buffer.alloc(98 * 1024)]),
    );
    const outcome = importInto(library, await yazlExport(library.dir, files));
    await expect(outcome).rejects.toThrow(/its entries together are compressed too well/);
    await expectNothingWritten();
  });

  it('refuses a source that declares more than the disk has free, archive or folder', async () => {
    const files = [(await taskFiles()).files, (await taskFiles()).files].flat();
    const declared = files.reduce((sum, file) => sum + file.data.length, 0);
    const archive = await yazlExport(library.dir, files);
    const asked: string[] = [];
    const disk = (free: number) => async (folder: string) => {
      asked.push(folder);
      return free;
    };
    const limits = { freeSpaceMarginBytes: 0 };
    const short = importInto(library, archive, { limits, freeSpace: disk(declared - 1) });
    await expect(short).rejects.toBeInstanceOf(ArchiveRefusedError);
    await expect(short).rejects.toThrow(
      `it needs ${declared} bytes free on the library’s disk, and only ${declared - 1} are free`,
    );
    await expectNothingWritten();
    expect(asked).toEqual([library.root]);

    const folder = join(library.dir, 'unpacked');
    for (const file of files) {
      await mkdir(join(folder, file.path, '..'), { recursive: true });
      await writeFile(join(folder, file.path), file.data);
    }
    await expect(importInto(library, folder, { freeSpace: disk(1024) })).rejects.toThrow(
      /did not import this folder: it needs \d+ bytes free/,
    );
    await expectNothingWritten();

    // Exactly enough room: the same archive comes in.
    const summary = await importInto(library, archive, { limits, freeSpace: disk(declared) });
    expect(summary.addedTasks).toBe(2);
  });
});

describe('every imported image passes the check a download passes', () => {
  it('records the size the image has, not the one its sidecar claims', async () => {
    const png = await makeImage('png', 16, 12);
    const { record, files } = await taskFiles({ data: png, width: 4000, height: 3000 });
    const summary = await importInto(library, await yazlExport(library.dir, files));
    expect(summary.refused).toEqual([]);
    expect(library.history.get(record.localId)?.images[0]).toMatchObject({
      state: 'saved',
      width: 16,
      height: 12,
    });
  });

  it.each<[string, () => Promise<CraftedImage>, RegExp]>([
    [
      'random bytes behind a PNG signature',
      async () => ({
        data: Buffer.concat([PNG_SIGNATURE, randomBytes(64 * 1024)]),
        width: 8,
        height: 8,
      }),
      /damaged/,
    ],
    [
      'a text file',
      async () => ({
        data: Buffer.from('just some text, not a picture\n'.repeat(20)),
        width: 8,
        height: 8,
      }),
      /does not hold the image its name says/,
    ],
    [
      'a PNG whose header claims 40000×40000 pixels, its sidecar 8×8',
      async () => ({ data: pngClaiming(40_000, 40_000), width: 8, height: 8 }),
      /claims to be 40000×40000 pixels/,
    ],
  ])(
    'refuses %s named image-1.png; its task comes in, the image recorded invalid',
    async (_label, make, reason) => {
      const good = await taskFiles();
      const bad = await taskFiles(await make());
      const summary = await importInto(
        library,
        await yazlExport(library.dir, [...good.files, ...bad.files]),
      );
      const [badImage] = bad.files;
      expect(summary.refused.map((refused) => [refused.path, refused.reason])).toEqual([
        [badImage?.path, expect.stringMatching(reason)],
      ]);
      expect(library.history.get(good.record.localId)?.images[0]?.state).toBe('saved');
      expect(library.history.get(bad.record.localId)?.images[0]).toMatchObject({
        state: 'invalid',
        error: expect.stringMatching(reason),
        errorSentence: summary.refused[0]?.reasonSentence,
      });
      expect(library.history.get(bad.record.localId)?.images[0]?.file).toBeUndefined();
      // Nothing of it on disk: its task folder holds the sidecar alone, the temporary folder nothing.
      const written = await filesUnder(library.root);
      expect(
        written
          .filter((file) => file.includes(bad.record.folder ?? '?'))
          .map((file) => file.slice(-11)),
      ).toEqual(['pictor.json']);
      expect(written.filter((file) => file.includes('.pictor-tmp'))).toEqual([]);
    },
  );

  it('refuses a junk image added to a task the library has, publishing nothing', async () => {
    const { record, files } = await taskFiles();
    await importInto(library, await yazlExport(library.dir, files, 'first.zip'));
    const [image, sidecar] = files as [ExportFile, ExportFile];
    const junk: ExportFile = {
      ...image,
      path: image.path.replace('image-1.png', 'image-2.png'),
      data: Buffer.concat([PNG_SIGNATURE, randomBytes(8 * 1024)]),
    };
    const twoImages = {
      ...record,
      images: [...record.images, { ...record.images[0]!, index: 1, file: junk.path }],
    };
    const again = await importInto(
      library,
      await yazlExport(
        library.dir,
        [image, junk, { ...sidecar, data: Buffer.from(sidecarText(twoImages)) }],
        'second.zip',
      ),
    );
    expect(again.refused.map((refused) => refused.path)).toEqual([junk.path]);
    expect(again.addedImages).toBe(0);
    expect(library.history.get(record.localId)?.images).toHaveLength(1);
    expect((await filesUnder(library.root)).filter((file) => file.endsWith('image-2.png'))).toEqual(
      [],
    );
  });
});
