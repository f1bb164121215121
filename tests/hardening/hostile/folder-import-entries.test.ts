/**
 * A folder to import is listed against the import's bound on entries, whatever they are: files
 * it takes, and links, FIFOs, badly named entries and folders it refuses or walks alike. Counting
 * only the files it takes let a crafted folder of millions of links or odd names fill main's
 * memory with refusals (each kept, with its path and sentence, for the summary) and walk on
 * without end. Real folders, the real import, a small bound.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveRefusedError } from '../../../electron/core/library/archive/archive-errors';
import { taskFiles } from '../../unit/core/library/archive/crafted-export';
import { importInto, useLibrary } from '../../unit/core/library/archive/library-fixture';
import { fifoMaker, makeFifo } from '../../support/tools';

const library = useLibrary();
const fifo = fifoMaker();
const MAX = 12;

/** A folder holding one real task, and `strays` made by `make` beside it. */
async function folderWith(
  name: string,
  strays: number,
  make: (path: string, n: number) => Promise<void> | void,
) {
  const folder = join(library.dir, name);
  const { files } = await taskFiles();
  for (const file of files) {
    await mkdir(join(folder, file.path, '..'), { recursive: true });
    await writeFile(join(folder, file.path), file.data);
  }
  await mkdir(join(folder, 'strays'), { recursive: true });
  for (let n = 0; n < strays; n += 1) await make(join(folder, 'strays', `stray-${n}`), n);
  return folder;
}

const kinds: [string, (path: string, n: number) => Promise<void> | void][] = [
  ['links', (path) => symlink('/etc/hostname', path)],
  ['badly named files', (path) => writeFile(`${path}\u200b.png`, 'x')],
  ['files it does not take', (path) => writeFile(`${path}.txt`, 'x')],
  ['empty folders', (path) => mkdir(path)],
];
if (fifo.path) kinds.push(['FIFOs', (path) => makeFifo(fifo, path)]);

describe('a folder import counts every entry it lists', () => {
  for (const [kind, make] of kinds) {
    it(`refuses a folder of more ${kind} than the bound, before anything is written`, async () => {
      const folder = await folderWith(kind.replace(/ /g, '-'), MAX * 3, make);
      await expect(importInto(library, folder, { limits: { maxEntries: MAX } })).rejects.toThrow(
        ArchiveRefusedError,
      );
      expect(library.history.count({})).toBe(0);
    });
  }

  it('imports a folder within the bound, its strays named', async () => {
    const folder = await folderWith('within', 3, (path) => symlink('/etc/hostname', path));
    const summary = await importInto(library, folder, { limits: { maxEntries: MAX } });
    expect(summary.addedTasks).toBe(1);
    expect(summary.refused).toHaveLength(3);
  });
});
