/**
 * A library import onto a gallery disk that fills up half-way (a small tmpfs, Linux as root): the
 * disk had room when the import checked, then another program took it. A full disk is not the
 * images' fault: none may be recorded `invalid` ("could not be read") for it; the import stops
 * with the disk's sentence, keeps only whole tasks with their records, and once the disk has room
 * the same import adds each remaining task once, every image saved.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { LibraryDiskError } from '../../../electron/core/library/archive/archive-errors';
import { importLibrary } from '../../../electron/core/library/archive/import-library';
import { filesUnder } from '../../support/files';
import { makeImage } from '../../support/gallery-helpers';
import { taskFiles, type ExportFile } from '../../unit/core/library/archive/crafted-export';
import { yazlExport } from '../../unit/core/library/archive/yazl-archive';
import { mountTmpfs, probeMount, unmount } from '../crashes/disk-fixture';
import { galleryOffline } from '../../support/gallery-with-intake';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const probe = probeMount();
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Six tasks of one ~200 KB image each (random pixels: they do not compress). */
async function sixTasks(): Promise<{ records: TaskRecord[]; files: ExportFile[] }> {
  const tasks: { record: TaskRecord; files: ExportFile[] }[] = [];
  for (let i = 0; i < 6; i += 1) {
    tasks.push(
      await taskFiles({ data: await makeImage('png', 256, 256), width: 256, height: 256 }),
    );
  }
  return { records: tasks.map((task) => task.record), files: tasks.flatMap((task) => task.files) };
}

/** The disk space each task folder under `root` takes on tmpfs (its files in whole 4 KiB pages). */
async function pagesPerTask(root: string): Promise<number[]> {
  const byFolder = new Map<string, number>();
  for (const file of await filesUnder(root)) {
    const folder = relative(root, dirname(file));
    const pages = Math.ceil((await stat(file)).size / 4096) * 4096;
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + pages);
  }
  return (await taskFolders(root)).map((folder) => byFolder.get(folder) ?? 0);
}

/** Every task folder in the gallery (a folder holding a sidecar), relative to the root. */
async function taskFolders(root: string): Promise<string[]> {
  return (await filesUnder(root))
    .filter((file) => file.endsWith('/pictor.json'))
    .map((file) => relative(root, dirname(file)))
    .sort();
}

describe.skipIf(!probe.ok)(
  `library import onto a disk that fills up${probe.ok ? '' : ` (skipped: ${probe.reason})`}`,
  () => {
    it('stops with whole tasks only, none with an image marked unreadable; again with room adds each once', async () => {
      const base = await tempFolder('import-disk');
      cleanups.push(() => removeFolder(base));
      const { records, files } = await sixTasks();
      const archive = await yazlExport(base, files, 'six.zip');
      const importInto = async (root: string, history: HistoryStore) => {
        const { intake } = galleryOffline(root);
        return importLibrary({
          intake,
          history,
          source: archive,
          // The disk had room when the import looked (another program filled it after).
          freeSpace: () => Promise.resolve(Number.MAX_SAFE_INTEGER),
        });
      };
      // What one task takes, from the same import onto a disk with room.
      const roomy = join(base, 'roomy');
      await mkdir(join(roomy, TEMP_DIR), { recursive: true });
      const scratch = HistoryStore.open(join(base, 'scratch.sqlite'));
      cleanups.push(() => scratch.close());
      await importInto(roomy, scratch);
      const sizes = await pagesPerTask(roomy);
      expect(sizes).toHaveLength(records.length);
      const largest = Math.max(...sizes);
      // The import writes up to four tasks at once, each staged whole before it is renamed into
      // place. Room for five of the largest: the disk can only fill once a task is whole (four in
      // flight fit beside nothing), and it must fill before the sixth (six do not fit).
      const room = 5 * largest;
      expect(room).toBeLessThan(6 * Math.min(...sizes));

      const root = join(base, 'gallery');
      await mkdir(root);
      mountTmpfs(root, room);
      cleanups.push(() => unmount(root));
      await mkdir(join(root, TEMP_DIR));
      const history = HistoryStore.open(join(base, 'history.sqlite'));
      cleanups.push(() => history.close());
      const importOnce = () => importInto(root, history);

      const failed = await importOnce().catch((error: unknown) => error);

      // The disk's sentence (not an unexpected problem), the file system's error as its cause.
      expect(failed).toBeInstanceOf(LibraryDiskError);
      expect(((failed as LibraryDiskError).cause as NodeJS.ErrnoException).code).toBe('ENOSPC');
      const kept = records.filter((record) => history.get(record.localId));
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(records.length);
      // Every task kept is whole; no image was recorded as refused because the disk was full.
      for (const record of kept) {
        expect(history.get(record.localId)?.images.map((image) => image.state)).toEqual(['saved']);
      }
      expect(await taskFolders(root)).toEqual(kept.map((record) => record.folder).sort());

      execFileSync('mount', ['-o', 'remount,size=16m', root], { stdio: 'pipe' });
      const summary = await importOnce();

      expect(summary).toMatchObject({
        addedTasks: records.length - kept.length,
        duplicateTasks: kept.length,
        refused: [],
        cancelled: false,
      });
      expect(await taskFolders(root)).toEqual(records.map((record) => record.folder).sort());
      for (const [i, record] of records.entries()) {
        const images = history.get(record.localId)?.images ?? [];
        expect(images.map((image) => [image.index, image.state])).toEqual([[0, 'saved']]);
        const bytes = await readFile(join(root, ...images[0]!.file!.split('/')));
        expect(bytes.equals(files[i * 2]!.data)).toBe(true);
      }
    });
  },
);
