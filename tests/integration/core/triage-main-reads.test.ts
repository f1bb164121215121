/**
 * A rating of many images reads no task record on main's thread: the history worker writes the
 * triage and hands back each task's delta (main announces those), and the XMP sidecars are
 * written from the records the worker reads (core/engine/sidecar-records.ts), so main's own
 * connection is asked for none of the tasks (no SQL, no record checked against its schema) while
 * every image's sidecar still gets its rating. A task the engine holds live (one it works on)
 * keeps its sidecar written from its live copy.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { makeImage as makeImageFile } from '../../support/gallery-helpers';
import { offlineCore } from '../../support/offline-core';
import { makeImage, makeTask } from '../../support/task-records';

const TASKS = 60;
const IMAGES = 2;
/** HistoryStore's reads that return whole task records. */
const RECORD_READS = ['get', 'getMany', 'getByTaskId', 'findByTaskId', 'unfinished'] as const;

let core: PictorCore;

const localIdOf = (n: number) => `abcd${String(n).padStart(4, '0')}-0000-4000-8000-000000000001`;
const folderOf = (n: number) => `2026/01/2026-01-15_120000_harbour_${String(n).padStart(4, '0')}`;

beforeEach(async () => {
  core = await offlineCore({ clock: systemClock });
  const png = await makeImageFile('png', 8, 8);
  const tasks = [];
  for (let n = 0; n < TASKS; n += 1) {
    const folder = folderOf(n);
    await mkdir(join(core.gallery.root, folder), { recursive: true });
    const images = [];
    for (let index = 0; index < IMAGES; index += 1) {
      const file = `${folder}/image-${String(index + 1)}.png`;
      await writeFile(join(core.gallery.root, file), png);
      images.push(makeImage(index, { file, thumbnail: undefined }));
    }
    tasks.push(
      makeTask({ localId: localIdOf(n), createdAt: 1_700_000_000_000 + n, folder, images }),
    );
  }
  core.history.putMany(tasks);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts main's reads of whole records (this thread's stores only: the worker is another). */
function countRecordReads(): { readonly count: number } {
  const counted = { count: 0 };
  for (const name of RECORD_READS) {
    const read = HistoryStore.prototype[name] as (...args: unknown[]) => unknown;
    vi.spyOn(HistoryStore.prototype, name).mockImplementation(function (
      this: HistoryStore,
      ...args: unknown[]
    ) {
      counted.count += 1;
      return read.apply(this, args);
    } as never);
  }
  return counted;
}

const sidecar = (n: number, index: number) =>
  readFile(join(core.gallery.root, folderOf(n), `image-${String(index + 1)}.xmp`), 'utf8');

describe('a rating of many images', { timeout: 120_000 }, () => {
  it('reads no task record on main, and every image’s XMP sidecar gets its rating', async () => {
    const refs = Array.from({ length: TASKS * IMAGES }, (_, n) => ({
      localId: localIdOf(Math.floor(n / IMAGES)),
      index: n % IMAGES,
    }));
    const reads = countRecordReads();
    const outcome = await core.triage.apply(refs, { kind: 'rating', rating: 4 });
    expect(outcome).toMatchObject({ changed: TASKS * IMAGES, tasks: TASKS });
    await outcome.announced;
    // Every sidecar asked for written: the engine's pause waits for the writes under way.
    await core.engine.pause();
    core.engine.resume();
    expect(reads.count).toBe(0);
    for (let n = 0; n < TASKS; n += 1) {
      for (let index = 0; index < IMAGES; index += 1) {
        expect(await sidecar(n, index)).toContain('<xmp:Rating>4</xmp:Rating>');
      }
    }
    // Its Undo the same way: no record read on main, each sidecar without the rating again.
    const undone = await core.triage.undo();
    await undone?.announced;
    await core.engine.pause();
    core.engine.resume();
    expect(reads.count).toBe(0);
    await expect(sidecar(0, 0)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
