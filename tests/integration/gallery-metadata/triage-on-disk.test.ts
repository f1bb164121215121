/**
 * Where a triage edit goes on disk, on the real core with real PNG files: into each image's XMP
 * sidecar (Pictor's own element holds the whole triage: star, rating, reject, tags and boards in
 * their order, time), never into the task's `pictor.json`, which stays byte for byte and is not
 * written at all; a rebuild from the folder restores exactly the triage the history had, Undo to
 * no triage included. A gallery written before (its `pictor.json` holding every image's triage,
 * as each triage edit rewrote it) rebuilds as it did, and the task's first triage edit writes that
 * `pictor.json` once more without it; from then on only the XMP sidecars. A gallery folder
 * imported as it is brings the triage its XMP sidecars hold. Rating images costs at
 * most 1 KB of the history per image (the bytes SQLite appended to its write-ahead log) plus the
 * image's XMP sidecar, itself under 1 KB, and no byte of `pictor.json`.
 */
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { readOwnTriage } from '../../../electron/core/gallery/metadata/xmp-own-triage';
import { buildTriagePacket, xmpTriageOf } from '../../../electron/core/gallery/metadata/xmp-triage';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { rebuildFromFolder } from '../../../electron/core/library/rebuild';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { makeImage as makeImageFile } from '../../support/gallery-helpers';
import { makeImage, makeTask } from '../../support/task-records';
import { offlineCore, offlineDir } from '../../support/offline-core';

let dir: string;
let gallery: string;
let png: Buffer;

beforeEach(async () => {
  dir = await offlineDir();
  gallery = join(dir, 'gallery');
  png = await makeImageFile('png', 8, 8);
});

/** An offline core on the test's library (its gallery `gallery`). */
const open = () => offlineCore({ dir });

/** A task of `images` saved images in folder `t-<n>`, their PNG files written there. */
async function savedTask(n: number, images = 2, triage: Partial<ImageRecord>[] = []) {
  const folder = `t-${String(n)}`;
  await mkdir(join(gallery, folder), { recursive: true });
  const file = (i: number) => `${folder}/image-${String(i + 1)}.png`;
  for (let i = 0; i < images; i += 1) await writeFile(join(gallery, file(i)), png);
  return makeTask({
    localId: `task-${String(n).padStart(4, '0')}`,
    folder,
    prompt: `A harbour at dusk, ${'soft light over still water, '.repeat(20)}`,
    images: Array.from({ length: images }, (_, i) =>
      makeImage(i, { file: file(i), bytes: png.length, thumbnail: undefined, ...triage[i] }),
    ),
  });
}

const TRIAGE = ['favourite', 'rating', 'flag', 'tags', 'boards', 'triagedAt'] as const;
const triageOf = (record: TaskRecord | undefined) =>
  (record?.images ?? []).map((image) =>
    Object.fromEntries(TRIAGE.map((key) => [key, image[key]]).filter(([, v]) => v !== undefined)),
  );

/** The triage each rebuilt task has, by local id. */
async function rebuiltTriage() {
  const { records } = await rebuildFromFolder(gallery);
  return new Map(records.map((record) => [record.localId, triageOf(record)]));
}

const sidecarOf = (folder: string) => join(gallery, folder, 'pictor.json');

describe('a triage edit on disk', () => {
  it('goes to the XMP sidecars alone: pictor.json is never written, and a rebuild restores it all', async () => {
    const task = await savedTask(0);
    let core = await open();
    core.history.put(task);
    await core.gallery.writeSidecar(core.history.get(task.localId)!);
    const before = await readFile(sidecarOf('t-0'));
    const { mtimeMs } = await stat(sidecarOf('t-0'));
    const ref = (index: number) => [{ localId: task.localId, index }];
    core.boards.create('Clients/Acme');
    await core.triage.apply(ref(0), { kind: 'rating', rating: 4 });
    await core.triage.apply(ref(0), { kind: 'tag', tag: 'Zeta', add: true });
    await core.triage.apply(ref(0), { kind: 'tag', tag: 'alpha', add: true });
    await core.triage.apply(ref(1), { kind: 'flag', flag: 'pick' });
    await core.triage.apply(ref(1), { kind: 'board', path: 'Clients/Acme', add: true });
    await core.triage.apply(ref(1), { kind: 'rating', rating: 2 });
    await core.triage.apply(ref(1), { kind: 'flag', flag: 'reject' });
    const expected = triageOf(core.history.get(task.localId));
    expect(expected[0]).toMatchObject({ rating: 4, tags: ['Zeta', 'alpha'] });
    expect(expected[1]).toMatchObject({ rating: 2, flag: 'reject', boards: ['Clients/Acme'] });
    await core.close();

    expect((await readFile(sidecarOf('t-0'))).equals(before)).toBe(true);
    expect((await stat(sidecarOf('t-0'))).mtimeMs).toBe(mtimeMs);
    const xmp = await readFile(join(gallery, 't-0', 'image-2.xmp'), 'utf8');
    expect(xmp).toContain('<xmp:Rating>-1</xmp:Rating>');
    expect(readOwnTriage(xmp)).toMatchObject({ rating: 2, flag: 'reject' });
    expect((await rebuiltTriage()).get(task.localId)).toEqual(expected);

    // A pick alone, then Undo back to no triage at all: the rebuild follows each.
    core = await open();
    await core.triage.apply(ref(1), { kind: 'flag', flag: 'pick' });
    await core.close();
    expect((await rebuiltTriage()).get(task.localId)?.[1]).toMatchObject({ favourite: true });
    core = await open();
    const bare = await savedTask(1, 1);
    core.history.put(bare);
    await core.gallery.writeSidecar(core.history.get(bare.localId)!);
    await core.triage.apply([{ localId: bare.localId, index: 0 }], { kind: 'rating', rating: 5 });
    expect(await core.triage.undo()).not.toBeNull();
    const undone = triageOf(core.history.get(bare.localId));
    await core.close();
    expect(undone).toEqual([{ favourite: false }]);
    expect((await rebuiltTriage()).get(bare.localId)).toEqual(undone);
    expect((await readdir(join(gallery, 't-1'))).filter((name) => name.endsWith('.xmp'))).toEqual(
      [],
    );
  });

  it('of a gallery written before: rebuilds as it did, then writes pictor.json once without triage', async () => {
    // As today's release writes a task: pictor.json holds every image's triage, and an image with
    // a rating has a packet of standard elements beside it.
    const task = await savedTask(0, 2, [
      { rating: 3, tags: ['old'], triagedAt: 1_700_000_000_000 },
      { favourite: true, boards: ['Mood'], triagedAt: 1_700_000_000_001 },
    ]);
    const record = { ...task, favourite: true };
    await writeFile(sidecarOf('t-0'), sidecarText(record));
    await writeFile(
      join(gallery, 't-0', 'image-1.xmp'),
      buildTriagePacket(xmpTriageOf(record.images[0]!)!),
    );
    expect((await rebuiltTriage()).get(task.localId)).toEqual(triageOf(record));

    let core = await open();
    core.history.put(record);
    const ref = (index: number) => [{ localId: task.localId, index }];
    await core.triage.apply(ref(0), { kind: 'rating', rating: 0 });
    const first = triageOf(core.history.get(task.localId));
    await core.close();
    const written = JSON.parse(await readFile(sidecarOf('t-0'), 'utf8')) as { record: TaskRecord };
    expect(triageOf(written.record)).toEqual([{ favourite: false }, { favourite: false }]);
    expect((await rebuiltTriage()).get(task.localId)).toEqual(first);

    const before = await readFile(sidecarOf('t-0'));
    const { mtimeMs } = await stat(sidecarOf('t-0'));
    core = await open();
    await core.triage.apply(ref(1), { kind: 'rating', rating: 2 });
    const second = triageOf(core.history.get(task.localId));
    await core.close();
    expect((await readFile(sidecarOf('t-0'))).equals(before)).toBe(true);
    expect((await stat(sidecarOf('t-0'))).mtimeMs).toBe(mtimeMs);
    expect((await rebuiltTriage()).get(task.localId)).toEqual(second);
  });

  it('comes with a gallery folder imported as it is: the import reads it from the XMP sidecars', async () => {
    const task = await savedTask(0);
    let core = await open();
    core.history.put(task);
    await core.gallery.writeSidecar(core.history.get(task.localId)!);
    core.boards.create('Mood');
    await core.triage.apply([{ localId: task.localId, index: 0 }], { kind: 'rating', rating: 3 });
    await core.triage.apply([{ localId: task.localId, index: 1 }], { kind: 'flag', flag: 'pick' });
    await core.triage.apply([{ localId: task.localId, index: 1 }], {
      kind: 'board',
      path: 'Mood',
      add: true,
    });
    const expected = triageOf(core.history.get(task.localId));
    await core.close();
    const written = JSON.parse(await readFile(sidecarOf('t-0'), 'utf8')) as { record: TaskRecord };
    expect(triageOf(written.record)).toEqual([{ favourite: false }, { favourite: false }]);

    const source = join(dir, 'source');
    await rm(join(gallery, '.pictor-tmp'), { recursive: true, force: true });
    await rename(gallery, source);
    await mkdir(gallery);
    await rm(join(dir, 'data'), { recursive: true, force: true });
    core = await open();
    try {
      expect(await core.operations.importArchive(source)).toMatchObject({
        addedTasks: 1,
      });
      expect(triageOf(core.history.get(task.localId))).toEqual(expected);
    } finally {
      await core.close();
    }
  });

  it('costs at most 1 KB of the history per image rated, plus its XMP sidecar, and no pictor.json', async () => {
    const tasks = await Promise.all(Array.from({ length: 50 }, (_, n) => savedTask(n, 4)));
    const core = await open();
    const file = join(dir, 'data', HISTORY_FILE);
    const folders = tasks.map((task) => task.folder!);
    const sizes = async (name: (folder: string) => string[]) => {
      const all = await Promise.all(folders.flatMap(name).map((path) => stat(path)));
      return all.reduce((sum, info) => sum + info.size, 0);
    };
    const jsons = (folder: string) => [sidecarOf(folder)];
    const xmps = (folder: string) =>
      [1, 2, 3, 4].map((n) => join(gallery, folder, `image-${String(n)}.xmp`));
    let history: number;
    let jsonBytes: number;
    let jsonTimes: number[];
    try {
      core.history.putMany(tasks);
      for (const task of tasks) await core.gallery.writeSidecar(core.history.get(task.localId)!);
      jsonBytes = await sizes(jsons);
      jsonTimes = await Promise.all(folders.map(async (f) => (await stat(sidecarOf(f))).mtimeMs));
      new DatabaseSync(file).exec('PRAGMA wal_checkpoint(TRUNCATE)');
      expect((await stat(`${file}-wal`)).size).toBe(0);
      const refs = tasks.flatMap((task) =>
        task.images.map(({ index }) => ({ localId: task.localId, index })),
      );
      expect(await core.triage.apply(refs, { kind: 'rating', rating: 4 })).toMatchObject({
        changed: 200,
      });
      history = (await stat(`${file}-wal`)).size;
    } finally {
      // Closing writes the XMP sidecars still waiting (a moment after the change).
      await core.close();
    }
    expect(history / 200).toBeLessThanOrEqual(1024);
    expect((await sizes(xmps)) / 200).toBeLessThanOrEqual(1024);
    expect(await sizes(jsons)).toBe(jsonBytes);
    const after = await Promise.all(folders.map((folder) => stat(sidecarOf(folder))));
    expect(after.map((info) => info.mtimeMs)).toEqual(jsonTimes);
  });
});
