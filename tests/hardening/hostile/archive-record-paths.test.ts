/**
 * An archive whose sidecar names files and folders outside the library: its task folder, each
 * image's file, thumbnail and XMP sidecar pointing up and out, or at absolute paths; its local id
 * spelled with steps up and slashes. Names in a sidecar are the archive author's words, never a
 * path Pictor reads or writes: the task comes in at Pictor's own folder for it, a carried image at
 * Pictor's own file there, an image not carried without any file (to be fetched again), and
 * nothing is written beside the library. The real import, real archives, a real history.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskFolderName } from '../../../electron/core/gallery/gallery-layout';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { filesUnder } from '../../support/files';
import { exportEntries, taskFiles, writeZip } from '../../unit/core/library/archive/crafted-export';
import { importInto, useLibrary } from '../../unit/core/library/archive/library-fixture';

const library = useLibrary();

/** Where each image's file names would lead, whichever one a careless import took. */
const OUTSIDE = {
  file: '../../outside/image-1.png',
  thumbnail: '/tmp/pictor-outside-thumb.webp',
  xmpFile: '../../../outside/image-1.xmp',
};

/** `record` claiming `folder` and `localId`, its image carried and a second one that is not. */
function crafted(record: TaskRecord, localId: string): TaskRecord {
  const [image] = record.images;
  if (!image) throw new Error('taskFiles makes one image');
  return {
    ...record,
    localId,
    folder: '../../outside/2025/02/task',
    images: [
      { ...image, ...OUTSIDE },
      { ...image, index: 1, ...OUTSIDE, file: '/etc/pictor-outside.png' },
    ],
  };
}

describe('a sidecar naming files and folders outside the library', () => {
  it.each(['../../outside', 'a/../../b', '..'])(
    'local id %j: the task at its own folder, its files Pictor’s, nothing written outside',
    async (localId) => {
      const { record, files } = await taskFiles();
      const claimed = crafted(record, localId);
      const entries = files.map((file) =>
        file.kind === 'sidecar' ? { ...file, data: Buffer.from(sidecarText(claimed)) } : file,
      );
      // A file where the sidecar's names lead, so an import that followed one would find it.
      await writeFile(join(library.dir, 'image-1.png'), 'outside');
      await importInto(library, await writeZip(library.dir, exportEntries(entries)));

      const [task, ...others] = library.history.list().items;
      expect(others).toEqual([]);
      const own = taskFolderName(claimed);
      expect(task?.folder).toBe(own);
      const [carried, missing] = task?.images ?? [];
      expect(carried).toMatchObject({ state: 'saved', file: `${own}/image-1.png` });
      expect(carried?.thumbnail?.startsWith(`${own}/`)).toBe(true);
      expect(carried?.xmpFile === undefined || carried.xmpFile.startsWith(`${own}/`)).toBe(true);
      expect(missing).toMatchObject({ state: 'pending' });
      for (const field of ['file', 'thumbnail', 'xmpFile'] as const)
        expect(missing?.[field]).toBeUndefined();
      // Beside the gallery: only the history, the archive and the decoy, as they were.
      const beside = (await filesUnder(library.dir))
        .map((file) => file.slice(library.dir.length + 1))
        .filter((name) => !name.startsWith('gallery/') && !name.startsWith('history.sqlite'));
      expect(beside.sort()).toEqual(['crafted.zip', 'image-1.png']);
    },
  );
});
