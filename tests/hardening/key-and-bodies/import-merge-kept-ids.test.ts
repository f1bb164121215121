/**
 * A task kept under a key-carrying service id, imported into a library that has the task already
 * (import-kept-ids.test.ts imports it into an empty one): the images it brings are merged into
 * the library's task (library/archive/import-merge.ts), and a folder at the task's name that the
 * history does not know (an import stopped before its record) is taken in first. Neither may put
 * the key back in the library: an added image takes the packet of the task it joins (the id
 * redacted), the folder's task is taken in redacted with its sidecar and images made again. An
 * image imported before is a duplicate, not a second copy, though its bytes were made again.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { readFileProvenance } from '../../../electron/core/gallery/metadata/read';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { importLibrary } from '../../../electron/core/library/archive/import-library';
import { scrubKey } from '../../../electron/core/secrets';
import { filesUnder } from '../../support/files';
import { galleryOffline } from '../../support/gallery-with-intake';
import { makeImage } from '../../support/gallery-helpers';
import { taskFiles, type ExportFile } from '../../unit/core/library/archive/crafted-export';
import { yazlExport } from '../../unit/core/library/archive/yazl-archive';
import { ENCODINGS, keyScanner, speltLeaks } from './key-encodings';
import { keptTask } from './kept-id-archive';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-merge-4Td8Wq1Zr6Lp3Yc9Hm2';
const OTHER = 'other-Vb7Ne2Jx5Qs0Gk3Fu8';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Ids a library may have kept: the key as is, encoded, spelt out. */
const KEPT_IDS: Record<string, string> = {
  raw: `task-${KEY}`,
  base64: `task-${ENCODINGS.base64!(KEY, 2)}`,
  'spelt out (spaces)': [...KEY].join(' '),
};

async function leaksUnder(folder: string): Promise<string[]> {
  const scanners = [keyScanner(KEY), keyScanner(OTHER)];
  const leaking: string[] = [];
  for (const file of await filesUnder(folder)) {
    const bytes = await readFile(file);
    const text = `${bytes.toString('latin1')}\n${bytes.toString('utf8')}`;
    const found = [
      ...scanners.flatMap((scanner) => scanner.leaks(text)),
      ...speltLeaks(bytes.toString('utf8'), KEY),
    ];
    if (found.length > 0) leaking.push(`${file.slice(folder.length)}: ${found.join(', ')}`);
  }
  return leaking;
}

/** A library (gallery folder and history) and two exports of one task, each with its own image. */
async function world(taskId: string) {
  const base = await tempFolder('merge-kept-id');
  cleanups.push(() => removeFolder(base));
  const made = await taskFiles();
  const first = await keptTask(base, taskId, made);
  const other = await makeImage('png', 8, 8);
  const second = await keptTask(base, taskId, {
    record: made.record,
    files: made.files.map((file) => (file.kind === 'image' ? { ...file, data: other } : file)),
  });
  const root = join(base, 'gallery');
  const dataDir = join(base, 'data');
  await mkdir(root);
  await mkdir(dataDir);
  const history = HistoryStore.open(join(dataDir, 'history.sqlite'));
  cleanups.push(() => history.close());
  const archive = async (name: string, files: ExportFile[]) =>
    yazlExport(base, files, `${name}.zip`);
  const importFrom = (source: string) =>
    importLibrary({
      intake: galleryOffline(root).intake,
      history,
      source,
      keyScrubber: () => Promise.resolve((text: string) => scrubKey(text, [OTHER, KEY])),
    });
  return {
    record: first.record,
    root,
    dataDir,
    history,
    importFrom,
    first: { files: first.files, zip: await archive('first', first.files) },
    second: { files: second.files, zip: await archive('second', second.files), png: other },
  };
}

async function saysRedacted(root: string, record: TaskRecord, position: number, name: string) {
  const image = join(root, record.images[position]!.file!);
  const said = await readFileProvenance(root, image, 'png', MAX_IMAGE_BYTES);
  expect(said.ok && said.provenance.taskId, name).toContain('[redacted]');
  expect(record.images[position]!.bytes, name).toBe((await readFile(image)).length);
  return image;
}

describe('a key-carrying task imported into a library that has the task', () => {
  it.each(Object.keys(KEPT_IDS))(
    'id %s: an image it adds says the redacted id, and one imported before is a duplicate',
    async (name) => {
      const { record, root, dataDir, history, importFrom, first, second } = await world(
        KEPT_IDS[name]!,
      );
      expect((await importFrom(first.zip)).addedTasks, name).toBe(1);
      const merged = await importFrom(second.zip);
      expect([merged.addedTasks, merged.addedImages], name).toEqual([0, 1]);
      const task = history.get(record.localId)!;
      expect(task.taskId, name).toContain('[redacted]');
      expect(
        task.images.map((image) => image.index),
        name,
      ).toEqual([0, 1]);
      expect(await leaksUnder(root), name).toEqual([]);
      expect(await leaksUnder(dataDir), name).toEqual([]);
      const added = await saysRedacted(root, task, 1, name);
      expect(await sharp(added).raw().toBuffer()).toEqual(await sharp(second.png).raw().toBuffer());
      // Both images again: each is in the library already, with the packet made again.
      for (const zip of [first.zip, second.zip]) {
        const again = await importFrom(zip);
        expect([again.addedImages, again.duplicateImages], name).toEqual([0, 1]);
      }
      expect(history.get(record.localId)!.images, name).toHaveLength(2);
    },
  );

  it.each(['first', 'second'] as const)(
    'a folder at the task name the history does not know, then the %s image: taken in redacted, sidecar and images',
    async (which) => {
      const { record, root, dataDir, history, importFrom, first, second } = await world(
        KEPT_IDS.raw!,
      );
      // The task's folder as an import stopped before its record left it (or a hand put it).
      for (const file of first.files) {
        await mkdir(dirname(join(root, file.path)), { recursive: true });
        await writeFile(join(root, file.path), file.data);
      }
      expect((await leaksUnder(root)).length).toBeGreaterThan(0);
      const summary = await importFrom(which === 'first' ? first.zip : second.zip);
      expect(summary.addedTasks).toBe(1);
      const task = history.get(record.localId)!;
      expect(task.taskId).toContain('[redacted]');
      expect(await leaksUnder(root)).toEqual([]);
      expect(await leaksUnder(dataDir)).toEqual([]);
      await saysRedacted(root, task, 0, which);
      if (which === 'second') await saysRedacted(root, task, 1, which);
      expect(task.images).toHaveLength(which === 'first' ? 1 : 2);
    },
  );

  it('an image of a task whose id carries no key is added as it came', async () => {
    const { record, root, history, importFrom, first, second } = await world('task-plain-5c2e');
    await importFrom(first.zip);
    await importFrom(second.zip);
    const task = history.get(record.localId)!;
    expect(task.taskId).toBe('task-plain-5c2e');
    expect(await readFile(join(root, task.images[1]!.file!))).toEqual(
      second.files.find((file) => file.kind === 'image')!.data,
    );
  });
});
