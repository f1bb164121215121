/**
 * A gallery folder with saved images, in-memory records and the trash over them (core/trash),
 * for the trash's unit tests: real files and links, a real journal folder, a manual clock and a
 * system trash that records what it is given.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import { TRASH_DIR } from '../../../../electron/core/trash/gallery-trash';
import { TrashJournal } from '../../../../electron/core/trash/trash-journal';
import {
  TrashOperations,
  type TrashEngine,
} from '../../../../electron/core/trash/trash-operations';
import {
  type ImageFilesPatch,
  withPatchedImage,
} from '../../../../shared/domain/image-files-patch';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { ManualClock } from '../../../fakes/manual-clock';
import { makeRecord } from '../../../support/gallery-helpers';
import { testFolder } from '../../../support/per-test';

export const KEEP_MS = 60_000;

/** Records in memory, as the engine keeps them (get, edit, editImageFiles, remove, reinstate). */
export class MemoryRecords implements TrashEngine {
  readonly map = new Map<string, TaskRecord>();
  get = (localId: string) => this.map.get(localId);
  edit = (localId: string, change: (record: TaskRecord) => TaskRecord) => {
    const current = this.map.get(localId);
    if (!current) throw new Error('no such task');
    const next = change(current);
    this.map.set(localId, next);
    return next;
  };
  editImageFiles = async (ref: { localId: string; index: number }, patch: ImageFilesPatch) => {
    const current = this.get(ref.localId);
    if (!current) throw new Error('no such task');
    const next = withPatchedImage(current, ref.index, patch) ?? current;
    this.map.set(ref.localId, next);
    return next;
  };
  remove = async (localId: string) => this.map.delete(localId);
  reinstate = async (record: TaskRecord) => {
    this.map.set(record.localId, this.map.get(record.localId) ?? record);
    return this.map.get(record.localId)!;
  };
}

/** `count` tasks in their own folders, each with one saved image and its thumbnail. */
export async function galleryWithImages(count = 1) {
  const root = await testFolder('gallery');
  // Made by the journal itself (0700), as in the data folder.
  const journalDir = join(await testFolder('data'), 'trash-journal');
  const records = new MemoryRecords();
  const tasks: TaskRecord[] = [];
  for (let n = 0; n < count; n += 1) {
    const folder = `task-${String(n)}`;
    await mkdir(join(root, folder, '.thumbs'), { recursive: true });
    await writeFile(join(root, folder, 'image-1.png'), `png bytes ${String(n)}`);
    await writeFile(join(root, folder, '.thumbs', 'image-1.webp'), `thumb bytes ${String(n)}`);
    const base = makeRecord(['https://cdn.example/1.png', 'https://cdn.example/2.png']);
    const saved: TaskRecord = {
      ...base,
      images: [
        {
          ...base.images[0]!,
          state: 'saved',
          file: `${folder}/image-1.png`,
          thumbnail: `${folder}/.thumbs/image-1.webp`,
        },
        base.images[1]!,
      ],
    };
    records.map.set(saved.localId, saved);
    tasks.push(saved);
  }
  const trashed: string[] = [];
  const clock = new ManualClock();
  const core = {
    engine: records,
    gallery: { root, resolve: (relative: string) => resolveInside(root, relative) },
  };
  const open = (sendToSystemTrash?: (file: string) => Promise<void>) =>
    new TrashOperations({
      journal: new TrashJournal(journalDir),
      core,
      clock,
      keepMs: KEEP_MS,
      sendToSystemTrash:
        sendToSystemTrash ??
        (async (file) => {
          trashed.push(file);
          await rm(file);
        }),
    });
  const refs = tasks.map((task) => ({ localId: task.localId, index: 0 }));
  return { root, journalDir, records, tasks, refs, trashed, clock, ops: open(), open };
}

/** The files under `.pictor-trash`, relative to it. */
export async function inTrash(root: string): Promise<string[]> {
  const found: string[] = [];
  const folder = join(root, TRASH_DIR);
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found.push(join(entry.parentPath, entry.name).slice(folder.length + 1));
  }
  return found.sort();
}

/** The one record an operation changed; its first problem thrown when it changed none. */
export function onlyRecord(outcome: { records: TaskRecord[]; problem?: unknown }): TaskRecord {
  const [record] = outcome.records;
  if (record === undefined) throw outcome.problem;
  return record;
}
