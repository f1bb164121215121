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
import { rebuildFromFolder } from '../../../electron/core/library/rebuild';
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

/**
 * Spellings of one NFC name, the one a folder import and a rebuild take first: NFC and NFD, the
 * Kelvin and Ångström signs (singletons NFC maps to a letter), and two spellings of which
 * neither is NFC (`K` or the Kelvin sign, then an acute: NFC is `\u1e30`), where the least in
 * code-unit order is taken.
 */
const SPELLINGS: ReadonlyArray<{ taken: string; others: readonly string[] }> = [
  { taken: NFC, others: [NFD] },
  { taken: 'K', others: ['\u212a'] },
  { taken: '\u00c5', others: ['\u212b', 'A\u030a'] },
  { taken: '\u1e30', others: ['K\u0301', '\u212a\u0301'] },
  // Groups enough that the disk lists the taken spelling first in some and last in others.
  ...Array.from({ length: 8 }, () => ({ taken: 'K\u0301', others: ['\u212a\u0301'] })),
];

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

describe('spellings of one name side by side, taken alike by a folder import and a rebuild', () => {
  it('takes the same task of each group, whatever order the disk lists them in', async () => {
    const files: ExportFile[] = [];
    const taken: string[] = [];
    const left: string[] = [];
    for (const [n, { taken: first, others }] of SPELLINGS.entries()) {
      const tasks = await Promise.all([first, ...others].map(() => taskFiles()));
      const kept = tasks[0]!;
      taken.push(kept.record.localId);
      // Each spelling holds its own task at the same paths; made in turn first and last, so the
      // disk lists some group's taken spelling first and another's last.
      const groups = [first, ...others].map((spelling, at) => {
        const own = tasks[at]!;
        if (at > 0) left.push(own.record.localId);
        const data = own.files.map((file, i) => ({ ...kept.files[i]!, data: file.data }));
        return under(`${spelling}-${n}`, data);
      });
      files.push(...(n % 2 === 0 ? groups : groups.reverse()).flat());
    }
    const folder = await folderOf(files);

    const rebuilt = await rebuildFromFolder(folder);
    const summary = await importInto(library, folder);

    expect(rebuilt.records.map((task) => task.localId).sort()).toEqual([...taken].sort());
    for (const id of taken) expect(library.history.get(id)).toBeDefined();
    for (const id of left) expect(library.history.get(id)).toBeUndefined();
    // Each refused in its turn: the rebuild a task folder's sidecar, the import its every file.
    const spelled = SPELLINGS.flatMap(({ others }, n) => others.map((other) => `${other}-${n}`));
    const named = (paths: readonly string[]) =>
      spelled.filter((top) =>
        paths.some((path) => path.startsWith(JSON.stringify(top).slice(0, -1))),
      );
    expect(named(rebuilt.skipped.map((skip) => skip.path))).toEqual(spelled);
    expect(named(summary.refused.map((refused) => refused.path))).toEqual(spelled);
  });
});
