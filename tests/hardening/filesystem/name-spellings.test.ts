/**
 * One name, two spellings: macOS gives the names of folders a user made in NFD (HFS+ always,
 * APFS as the program that made them wrote them), so a gallery regrouped under `Café` reaches a
 * folder import and an export spelled `Cafe\u0301`, which is no crafted archive's doing; where a
 * disk keeps both spellings side by side (Linux here, a network share), only the NFC one is
 * taken. Real folders and files on this disk, the real import and export.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../electron/core/library/archive/export-library';
import { taskFiles, type ExportFile } from '../../unit/core/library/archive/crafted-export';
import {
  addTask,
  importInto,
  useLibraries,
  useLibrary,
} from '../../unit/core/library/archive/library-fixture';

const library = useLibrary();
const another = useLibraries();
const NFC = 'Caf\u00e9';
const NFD = 'Cafe\u0301';

/** A real folder holding `files` at their paths, as the disk is given them. */
async function folderOf(files: readonly ExportFile[]): Promise<string> {
  const folder = join(library.dir, 'to-import');
  for (const file of files) {
    await mkdir(join(folder, file.path, '..'), { recursive: true });
    await writeFile(join(folder, file.path), file.data);
  }
  return folder;
}

const under = (top: string, files: readonly ExportFile[]) =>
  files.map((file) => ({ ...file, path: `${top}/${file.path}` }));

describe('a folder to import whose names macOS spelled in NFD', () => {
  it('imports the task of a folder the user named, whatever its spelling', async () => {
    const task = await taskFiles();
    const summary = await importInto(library, await folderOf(under(NFD, task.files)));
    expect(summary.refused).toEqual([]);
    expect(summary.addedTasks).toBe(1);
    expect(library.history.get(task.record.localId)).toBeDefined();
  });

  it('takes the NFC one of two spellings side by side, and names the other refused', async () => {
    const kept = await taskFiles();
    const twin = await taskFiles();
    // The twin's files at the kept task's paths but the first folder's spelling.
    const twins = under(NFD, kept.files).map((file, n) => ({ ...file, data: twin.files[n]!.data }));
    // Pairs enough that the disk lists some NFC spelling first and some last.
    const pairs = [1, 2, 3, 4, 5, 6].map((n) => [`${NFC}-${n}.png`, `${NFD}-${n}.png`]);
    pairs.push(['K.png', '\u212a.png']);
    const strays = pairs.flat().map((path) => ({ ...kept.files[0]!, path: `strays/${path}` }));
    const folder = await folderOf([...under(NFC, kept.files), ...twins, ...strays]);
    const summary = await importInto(library, folder);
    expect(summary.addedTasks).toBe(1);
    expect(library.history.get(kept.record.localId)).toBeDefined();
    expect(library.history.get(twin.record.localId)).toBeUndefined();
    // The listing's refusals (a path it quotes); the import refuses the strays it keeps for itself.
    const listed = summary.refused.filter((refused) => refused.path.startsWith('"'));
    expect(listed.map((refused) => refused.path).sort()).toEqual(
      [...twins.map((file) => file.path), ...pairs.map(([, other]) => `strays/${other}`)]
        .map((path) => JSON.stringify(path))
        .sort(),
    );
  });
});

describe('an export of a task in a folder macOS spelled in NFD', () => {
  it('carries it, named in NFC, and another library imports it', async () => {
    const record = await addTask(library);
    const folder = `${NFD}/${record.folder ?? ''}`;
    await mkdir(join(library.root, folder, '..'), { recursive: true });
    await rename(join(library.root, record.folder ?? ''), join(library.root, folder));
    const images = record.images.map((image) => ({
      ...image,
      file: `${folder}/${image.file?.split('/').pop() ?? ''}`,
    }));
    library.history.put({ ...record, folder, images });
    const target = join(library.dir, 'export.zip');
    const summary = await exportLibrary({
      root: library.root,
      history: library.history,
      target,
      pictorVersion: '9.9.9',
    });
    expect(summary.skipped).toEqual([]);
    expect(summary).toMatchObject({ tasks: 1, images: 1 });
    const other = await another();
    const imported = await importInto(other, target);
    expect(imported.addedTasks).toBe(1);
    expect(other.history.get(record.localId)?.images[0]?.state).toBe('saved');
  });
});
