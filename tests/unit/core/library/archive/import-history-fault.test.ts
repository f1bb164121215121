/**
 * An import whose history write fails (a full data disk: ENOSPC, injected into the history's
 * batch write) takes back the task folders and images it added, so no folder stays without its
 * record; and a folder or image that an earlier import left without its record (a take-back that
 * failed, a process killed before the batch was written) is recognised by the next import as the
 * same task, never copied a second time.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import type { HistoryStore } from '../../../../../electron/core/history/history-store';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { LibraryDiskError } from '../../../../../electron/core/library/archive/archive-errors';
import { filesUnder } from '../../../../support/files';
import { makeImage } from '../../../../support/gallery-helpers';
import { taskFiles, type ExportFile } from './crafted-export';
import { importInto, useLibrary } from './library-fixture';
import { yazlExport } from './yazl-archive';

const library = useLibrary();

/** The library's history, whose batch write fails as on a full disk. */
function fullDisk(
  history: HistoryStore,
): Pick<HistoryStore, 'get' | 'getByTaskId' | 'putManyCounted'> {
  return {
    get: (localId) => history.get(localId),
    getByTaskId: (endpoint, taskId) => history.getByTaskId(endpoint, taskId),
    putManyCounted: () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'ENOSPC' });
    },
  };
}

/** Every task folder in the gallery (a folder holding a sidecar), relative to the root. */
async function taskFolders(): Promise<string[]> {
  return (await filesUnder(library.root))
    .filter((file) => file.endsWith('/pictor.json'))
    .map((file) => relative(library.root, dirname(file)))
    .sort();
}

async function threeTasks(): Promise<{ records: TaskRecord[]; files: ExportFile[] }> {
  const tasks = [await taskFiles(), await taskFiles(), await taskFiles()];
  return { records: tasks.map((task) => task.record), files: tasks.flatMap((task) => task.files) };
}

/** A second image for `record`'s task, and its sidecar saying so. */
async function withSecondImage(record: TaskRecord, files: readonly ExportFile[]) {
  const [image, sidecar] = files as [ExportFile, ExportFile];
  const second: ExportFile = {
    ...image,
    path: image.path.replace('image-1.png', 'image-2.png'),
    data: await makeImage('png', 10, 6),
  };
  const both = { ...record, images: [...record.images, { ...record.images[0]!, index: 1 }] };
  return [image, second, { ...sidecar, data: Buffer.from(sidecarText(both)) }];
}

describe('an import whose history write fails', () => {
  it('takes back every task folder it added; importing again adds each task once', async () => {
    const { records, files } = await threeTasks();
    const archive = await yazlExport(library.dir, files, 'tasks.zip');
    const failed = importInto(library, archive, { history: fullDisk(library.history) });
    // The disk's sentence, the history's own error as its cause.
    await expect(failed).rejects.toThrow(LibraryDiskError);
    await expect(failed).rejects.toMatchObject({ cause: { message: 'database or disk is full' } });
    expect(await taskFolders()).toEqual([]);
    // No date folders left empty either: the gallery holds its temporary folder alone.
    expect(await readdir(library.root)).toEqual(['.pictor-tmp']);

    const summary = await importInto(library, archive);
    expect(summary.addedTasks).toBe(3);
    expect(await taskFolders()).toEqual(records.map((record) => record.folder).sort());
    for (const record of records)
      expect(library.history.get(record.localId)?.images[0]?.state).toBe('saved');
  });

  it('takes back the images it added to a task the library has', async () => {
    const { record, files } = await taskFiles();
    await importInto(library, await yazlExport(library.dir, files, 'one.zip'));
    const archive = await yazlExport(library.dir, await withSecondImage(record, files), 'two.zip');
    await expect(
      importInto(library, archive, { history: fullDisk(library.history) }),
    ).rejects.toMatchObject({ cause: { message: 'database or disk is full' } });
    const folder = join(library.root, record.folder ?? '?');
    // The merged image's thumbnail went with it.
    expect((await readdir(folder)).sort()).toEqual(['.thumbs', 'image-1.png', 'pictor.json']);
    expect(await readdir(join(folder, '.thumbs'))).toEqual(['image-1.webp']);

    const summary = await importInto(library, archive);
    expect(summary.addedImages).toBe(1);
    expect((await readdir(folder)).sort()).toEqual([
      '.thumbs',
      'image-1.png',
      'image-2.png',
      'pictor.json',
    ]);
    expect((await readdir(join(folder, '.thumbs'))).sort()).toEqual([
      'image-1.webp',
      'image-2.webp',
    ]);
    expect(library.history.get(record.localId)?.images.map((image) => image.state)).toEqual([
      'saved',
      'saved',
    ]);
  });
});

describe('what an earlier import left without its record', () => {
  it('is recognised as the same task: no second folder, every task back in the history', async () => {
    const { records, files } = await threeTasks();
    const archive = await yazlExport(library.dir, files, 'tasks.zip');
    await importInto(library, archive);
    // The batch that never reached the disk: the folders stay, their records do not.
    for (const record of records) library.history.delete(record.localId);
    expect(library.history.count()).toBe(0);

    const summary = await importInto(library, archive);
    expect(summary.addedTasks).toBe(3);
    expect(await taskFolders()).toEqual(records.map((record) => record.folder).sort());
    for (const record of records) {
      expect(library.history.get(record.localId)?.images[0]).toMatchObject({
        state: 'saved',
        file: `${record.folder}/image-1.png`,
      });
    }
  });

  it('takes an image file already in the task as that image, not copying it again', async () => {
    const { record, files } = await taskFiles();
    await importInto(library, await yazlExport(library.dir, files, 'one.zip'));
    const before = library.history.get(record.localId) as TaskRecord;
    const archive = await yazlExport(library.dir, await withSecondImage(record, files), 'two.zip');
    await importInto(library, archive);
    // Its record went back to one image (as if the history never took the second).
    library.history.put(before);

    const summary = await importInto(library, archive);
    expect(summary.addedImages).toBe(1);
    const folder = join(library.root, record.folder ?? '?');
    expect((await readdir(folder)).sort()).toEqual([
      '.thumbs',
      'image-1.png',
      'image-2.png',
      'pictor.json',
    ]);
    expect(library.history.get(record.localId)?.images.map((image) => image.file)).toEqual([
      `${record.folder}/image-1.png`,
      `${record.folder}/image-2.png`,
    ]);
  });
});
