/**
 * An Undo asked while its delete still runs (core/trash/trash-operations.ts): the delete stops
 * where it is and brings back what it had moved, in its own operation, as one step; the Undo's
 * answer counts every image (or task) of the delete as back, nothing reaches the system trash and
 * the journal is empty after. The same for a caller's stop signal (the CLI's Ctrl+C), for a
 * delete still waiting its turn (nothing moves), and for a removal of tasks.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrashEngine, TrashProgress } from '../../../../electron/core/trash/trash-operations';
import { TrashJournal } from '../../../../electron/core/trash/trash-journal';
import { TrashOperations } from '../../../../electron/core/trash/trash-operations';
import { TARGET, engineHarness } from '../engine/engine-harness';
import { KEEP_MS, galleryWithImages, inTrash } from './trash-fixture';
import { testFolder } from '../../../support/per-test';

/** Calls `then` once, right after the `nth` image's files were written (one put aside). */
function afterEdits(
  records: { editImageFiles: TrashEngine['editImageFiles'] },
  nth: number,
  then: () => void,
): void {
  const edit = records.editImageFiles;
  let edits = 0;
  records.editImageFiles = async (ref, patch) => {
    const record = await edit(ref, patch);
    edits += 1;
    if (edits === nth) then();
    return record;
  };
}

const states = (g: Awaited<ReturnType<typeof galleryWithImages>>): string[] =>
  g.tasks.map((task) => g.records.get(task.localId)!.images[0]!.state);

describe('an Undo while the delete runs', () => {
  it('stops it and brings back what it moved, as one step, every image counted as back', async () => {
    const g = await galleryWithImages(30);
    const progress: TrashProgress[] = [];
    g.ops.onDidProgress((p) => progress.push(p));
    let undo: ReturnType<typeof g.ops.restoreImages> | null = null;
    afterEdits(g.records, 10, () => {
      undo = g.ops.restoreImages(g.refs);
    });
    const deleted = await g.ops.deleteImages(g.refs);
    expect(deleted.canceled).toBe(true);
    expect(deleted.failed).toBe(0);
    const undone = await undo!;
    expect(undone.failed).toBe(0);
    expect(undone.records).toHaveLength(30);
    expect(states(g)).toEqual(Array(30).fill('saved'));
    for (const n of [0, 9, 10, 29]) {
      expect(existsSync(join(g.root, `task-${String(n)}`, 'image-1.png'))).toBe(true);
    }
    expect(await inTrash(g.root)).toEqual([]);
    expect(await readdir(g.journalDir)).toEqual([]);
    expect(g.trashed).toEqual([]);
    // The delete went no further than where the Undo found it, then brought those back.
    const deletes = progress.filter((p) => p.operation === 'delete');
    expect(Math.max(...deletes.map((p) => p.done))).toBeLessThan(30);
    expect(progress.at(-1)).toMatchObject({ operation: 'restore', items: 'images' });
    expect(g.clock.pending).toBe(0);
  });

  it('stops it on the caller’s signal too, and a later Undo has nothing left to do', async () => {
    const g = await galleryWithImages(12);
    const stop = new AbortController();
    afterEdits(g.records, 4, () => stop.abort());
    const deleted = await g.ops.deleteImages(g.refs, { signal: stop.signal });
    expect(deleted).toMatchObject({ canceled: true, failed: 0 });
    expect(deleted.records.map((r) => r.images[0]!.state)).toEqual(Array(4).fill('saved'));
    expect(states(g)).toEqual(Array(12).fill('saved'));
    expect(await readdir(g.journalDir)).toEqual([]);
    const later = await g.ops.restoreImages(g.refs);
    expect(later.failed).toBe(12);
  });

  it('stops a delete still waiting its turn before it moves anything', async () => {
    const g = await galleryWithImages(6);
    const [first, ...rest] = g.refs;
    const running = g.ops.deleteImages([first!]);
    const waiting = g.ops.deleteImages(rest);
    const undone = g.ops.restoreImages(rest);
    expect((await running).canceled).toBeUndefined();
    expect(await waiting).toMatchObject({ canceled: true, records: [], failed: 0 });
    expect((await undone).failed).toBe(0);
    expect(states(g)).toEqual(['deleted', 'saved', 'saved', 'saved', 'saved', 'saved']);
  });

  it('leaves a delete of other images alone', async () => {
    const g = await galleryWithImages(4);
    let undo: ReturnType<typeof g.ops.restoreImages> | null = null;
    afterEdits(g.records, 1, () => {
      undo = g.ops.restoreImages([g.refs[3]!]);
    });
    const deleted = await g.ops.deleteImages(g.refs.slice(0, 3));
    expect(deleted.canceled).toBeUndefined();
    expect((await undo!).failed).toBe(1);
    expect(states(g)).toEqual(['deleted', 'deleted', 'deleted', 'saved']);
  });
});

describe('an Undo while a removal of tasks runs', () => {
  it('stops it and puts back what it removed; every task is in the history after', async () => {
    const { clock, history, engine } = engineHarness();
    const records = await engine.submit({ prompt: 'a task to remove' }, TARGET, 40);
    const ids = records.map((record) => record.localId);
    const journalDir = await testFolder('journal');
    const ops = new TrashOperations({
      journal: new TrashJournal(journalDir),
      core: { engine, gallery: { root: '/no-gallery', resolve: (path) => path } },
      clock,
      keepMs: KEEP_MS,
      sendToSystemTrash: () => Promise.reject(new Error('no files here')),
    });
    let undo: ReturnType<typeof ops.restoreTasks> | null = null;
    const remove = engine.remove.bind(engine);
    let removals = 0;
    engine.remove = (localId: string) => {
      removals += 1;
      if (removals === 10) undo = ops.restoreTasks(ids);
      return remove(localId);
    };
    const removal = await ops.removeTasks(ids);
    expect(removal).toMatchObject({ canceled: true, removed: [] });
    expect(removals).toBeLessThan(40);
    const undone = await undo!;
    expect(undone.failed).toBe(0);
    expect(undone.records).toHaveLength(40);
    expect(ids.every((id) => history.get(id) !== undefined)).toBe(true);
    expect(await readdir(journalDir)).toEqual([]);
  });
});
