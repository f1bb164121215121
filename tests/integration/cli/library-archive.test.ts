/**
 * `pictor export` and `pictor import` as a user runs them: a real library (history and gallery of
 * real images) exported by one CLI process, imported by another into a fresh library with the
 * same tasks and identical bytes, a second import adding nothing, an edited archive's tags past
 * an image's limit dropped with a sentence saying how many, a crafted archive or a file that is no
 * ZIP refused in one sentence (exit 5) with nothing written, and an archive that cannot be written where it was asked for
 * (exit 5 with the sentence saying why).
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { filesUnder } from '../../support/files';
import { craftZip } from '../../unit/core/library/archive/crafted-zip';
import { exportEntries, taskFiles } from '../../unit/core/library/archive/crafted-export';
import { editArchive } from '../../unit/core/library/archive/edit-archive';
import {
  addTask,
  offlineGallery,
  savedImages,
  type Library,
} from '../../unit/core/library/archive/library-fixture';
import { expectExit, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();

function openLibrary(dataDir: string): Library {
  const root = join(dataDir, 'gallery');
  return {
    dir: dataDir,
    root,
    history: HistoryStore.open(join(dataDir, HISTORY_FILE)),
    ...offlineGallery(root),
  };
}

async function withLibrary<T>(dataDir: string, work: (library: Library) => Promise<T>): Promise<T> {
  const library = openLibrary(dataDir);
  try {
    return await work(library);
  } finally {
    library.history.close();
  }
}

describe('pictor export and import', () => {
  it('moves a library into a fresh one with the same tasks and bytes; a second import adds nothing', async () => {
    const from = await newWorld();
    // The first run makes the library's folders; the tasks are then added beside the CLI.
    expectExit(await from.run(['list']), 0);
    const expected = await withLibrary(from.dataDir, async (library) => {
      await addTask(library, ['png', 'webp']);
      await addTask(library, ['jpeg']);
      return savedImages(library);
    });
    const archive = join(from.dataDir, 'export.zip');
    const exported = await from.run(['export', archive]);
    expectExit(exported, 0);
    expect(exported.stdout).toMatch(/Exported 2 task\(s\) and 3 image\(s\)/);
    expect(exported.stdout).not.toMatch(/API key/);

    const to = await newWorld();
    const imported = await to.run(['import', archive]);
    expectExit(imported, 0);
    expect(imported.stdout).toMatch(/Added 2 task\(s\) and 3 image\(s\)/);
    expect(await withLibrary(to.dataDir, savedImages)).toEqual(expected);
    expect((await to.list()).length).toBe(2);

    const again = await to.run(['import', archive]);
    expectExit(again, 0);
    expect(again.stdout).toMatch(
      /Added 0 task\(s\) and 0 image\(s\); skipped 3 image\(s\) and 2 task\(s\)/,
    );
    const existing = await to.run(['export', archive]);
    expectExit(existing, 2);
    expect(existing.stderr).toMatch(/already exists/);
  });

  it('says how many exported images were saved with their key-carrying metadata removed', async () => {
    const world = await newWorld();
    expectExit(await world.run(['list']), 0);
    await withLibrary(world.dataDir, async (library) => {
      const record = await addTask(library, ['png', 'jpeg']);
      const [first, second] = record.images;
      library.history.put({
        ...record,
        images: [{ ...first!, keyRemoved: 'credentials' }, second!],
      });
    });
    const run = await world.run(['export', join(world.dataDir, 'export.zip')]);
    expectExit(run, 0);
    expect(run.stdout).toContain(
      '1 image in the archive is without the metadata that carried your API key: Pictor removed it when it saved the image.',
    );
  });

  it('says which tags of an edited archive it dropped: 70 on one image come in as 64', async () => {
    const from = await newWorld();
    expectExit(await from.run(['list']), 0);
    await withLibrary(from.dataDir, (library) => addTask(library, ['png']));
    const archive = join(from.dataDir, 'export.zip');
    expectExit(await from.run(['export', archive]), 0);
    const seventy = Array.from({ length: 70 }, (_, n) => `tag ${String(n)}`);
    const crafted = await editArchive(archive, join(from.dataDir, 'seventy.zip'), (record) => ({
      ...record,
      images: record.images.map((image) => ({ ...image, tags: seventy })),
    }));

    const to = await newWorld();
    const run = await to.run(['import', crafted]);
    expectExit(run, 0);
    expect(run.stdout).toMatch(/^Added 1 task\(s\) and 1 image\(s\);.*\n/);
    expect(run.stdout).toContain(
      'An image can have at most 64 tags: 6 tags were dropped from the imported images (past that limit or not valid).\n',
    );
    const [task] = await to.list();
    expect((task?.images[0] as { tags?: string[] } | undefined)?.tags).toEqual(
      seventy.slice(0, 64),
    );
  });

  it('exports only the tasks named with --task', async () => {
    const world = await newWorld();
    expectExit(await world.run(['list']), 0);
    const kept = await withLibrary(world.dataDir, async (library) => {
      await addTask(library, ['png']);
      return addTask(library, ['png']);
    });
    const archive = join(world.dataDir, 'one.zip');
    const run = await world.run(['export', archive, '--task', kept.localId]);
    expectExit(run, 0);
    expect(run.stdout).toMatch(/Exported 1 task\(s\) and 1 image\(s\)/);
  });

  it('refuses a file that is not a ZIP archive with exit 5 and a sentence, no reader text', async () => {
    const world = await newWorld();
    for (const [name, bytes] of [
      ['notes.zip', Buffer.from('hello, this is text\n')],
      ['empty.zip', Buffer.alloc(0)],
      ['png.zip', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
    ] as const) {
      const file = join(world.dataDir, name);
      await writeFile(file, bytes);
      const run = await world.run(['import', file]);
      expectExit(run, 5);
      expect(run.stderr).toBe(
        'Pictor did not import this archive: it is not a ZIP archive Pictor can read. Nothing was written to the library.\n',
      );
    }
    expect(await world.list()).toEqual([]);
  });

  it('refuses a crafted archive in one sentence, writing nothing', async () => {
    const world = await newWorld();
    const { files } = await taskFiles();
    const archive = join(world.dataDir, 'evil.zip');
    await writeFile(
      archive,
      craftZip(exportEntries(files, [{ name: '../../escaped.png', data: Buffer.from('x') }])),
    );
    const run = await world.run(['import', archive]);
    expectExit(run, 5);
    expect(run.stderr).toMatch(/did not import this archive: an entry’s path is not allowed/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect((await filesUnder(join(world.dataDir, 'gallery'))).length).toBe(0);
    expect(await world.list()).toEqual([]);
  });

  it('imports what is valid and names each file it refused (exit 4)', async () => {
    const world = await newWorld();
    const { record, files } = await taskFiles();
    const archive = join(world.dataDir, 'partly.zip');
    await writeFile(
      archive,
      craftZip(exportEntries(files, [{ name: 'notes.txt', data: Buffer.from('hi') }])),
    );
    const run = await world.run(['import', archive]);
    expectExit(run, 4);
    expect(run.stderr).toMatch(/Refused notes\.txt: The file is not part of a Pictor library\./);
    expect(run.stdout).toMatch(/Added 1 task\(s\) and 1 image\(s\)/);
    expect((await world.list()).map((task) => task.localId)).toEqual([record.localId]);
  });

  it('says what to type when the archive is missing or not named', async () => {
    const world = await newWorld();
    const missing = await world.run(['import', join(world.dataDir, 'nothing-here.zip')]);
    expectExit(missing, 2);
    expect(missing.stderr).toMatch(/no file or folder/);
    const unnamed = await world.run(['export']);
    expectExit(unnamed, 2);
    expect(unnamed.stderr).toMatch(/export needs the archive file/);
  });

  it('says why it cannot write the archive there (exit 5), leaving nothing behind', async () => {
    const world = await newWorld();
    expectExit(await world.run(['list']), 0);
    await withLibrary(world.dataDir, (library) => addTask(library, ['png']));
    const out = join(world.dataDir, 'out');
    await mkdir(out);
    await writeFile(join(out, 'notes.txt'), 'mine');

    const missing = join(out, 'no-such-folder', 'export.zip');
    const noFolder = await world.run(['export', missing]);
    expectExit(noFolder, 5);
    expect(noFolder.stderr).toContain(
      `Pictor could not write the archive ${missing} because its folder does not exist (ENOENT). Nothing was exported there; choose another folder, then export again.\n`,
    );
    expect(noFolder.stderr).not.toMatch(/unexpected problem|\n\s+at /);
    expect(noFolder.stdout).toBe('');

    const inFile = join(out, 'notes.txt', 'export.zip');
    const notFolder = await world.run(['export', inFile]);
    expectExit(notFolder, 5);
    expect(notFolder.stderr).toContain(
      `${inFile} because part of its path is a file, not a folder (ENOTDIR).`,
    );
    expect(await readdir(out)).toEqual(['notes.txt']);

    // The same export where it can be written.
    const fine = await world.run(['export', join(out, 'export.zip')]);
    expectExit(fine, 0);
    expect((await readdir(out)).sort()).toEqual(['export.zip', 'notes.txt']);
  });
});
