/**
 * The trash's writes run in the history worker: deleting images to the trash and their Undo,
 * removing tasks and their Undo, on the real core against the demo service, never ask main's own
 * history store to write (main reads, the worker writes); every change is on disk for another
 * connection, each task is announced, and main's change feed reports none of it back.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { trashFixture } from '../../support/trash-fixture';
import { coreAgainstDemo } from './core-harness';

const WRITES = ['put', 'putMany', 'editMany', 'delete', 'detach', 'attach'] as const;

describe("the trash's writes in the history worker", () => {
  it('delete, removal and their Undos never write on main, and are announced once', async () => {
    const harness = await coreAgainstDemo({ durationMs: 0 });
    const { core, target } = harness;
    core.engine.start();
    const made = await core.engine.submit({ prompt: 'kept', size: '64x64' }, target, 3);
    const ids = made.map((record) => record.localId);
    const done = await core.engine.whenSettled(ids);
    expect(done.map((record) => record.status)).toEqual(['completed', 'completed', 'completed']);
    const images = ids.map((localId) => ({ localId, index: 0 }));
    const files = images.map((ref) =>
      core.gallery.resolve(core.history.get(ref.localId)!.images[0]!.file!),
    );
    const { trash } = trashFixture(core, harness.dir);
    const announced: string[] = [];
    core.engine.onDidUpdate(({ record }) => announced.push(record.localId));
    const spies = WRITES.map((name) => vi.spyOn(core.history, name));
    const other = () => HistoryStore.open(join(harness.dir, 'data', HISTORY_FILE));

    expect((await trash.deleteImages(images)).failed).toBe(0);
    expect(files.some((file) => existsSync(file))).toBe(false);
    const seen = other();
    expect(ids.map((id) => seen.get(id)?.images[0]?.state)).toEqual(Array(3).fill('deleted'));
    expect((await trash.restoreImages(images)).failed).toBe(0);
    expect(ids.map((id) => seen.get(id)?.images[0]?.state)).toEqual(Array(3).fill('saved'));
    expect(files.every((file) => existsSync(file))).toBe(true);

    expect((await trash.removeTasks(ids)).removed).toEqual(ids);
    expect(ids.map((id) => seen.get(id))).toEqual([undefined, undefined, undefined]);
    expect((await trash.restoreTasks(ids)).failed).toBe(0);
    expect(ids.map((id) => seen.get(id)?.localId)).toEqual(ids);
    seen.close();

    for (const spy of spies) expect(spy, spy.getMockName()).not.toHaveBeenCalled();
    // A delete, its Undo and the removal's Undo announce each task once; a removal announces none.
    const counts = ids.map((id) => announced.filter((each) => each === id).length);
    expect(counts).toEqual([3, 3, 3]);
    // Another process's write: once main's feed reported it, it had its look at the worker's.
    const writer = other();
    writer.put({ ...done[0]!, localId: 'elsewhere', taskId: 'elsewhere-task' });
    writer.close();
    await vi.waitFor(() => expect(announced).toContain('elsewhere'), { timeout: 10_000 });
    expect(ids.map((id) => announced.filter((each) => each === id).length)).toEqual(counts);
    trash.dispose();
  });
});
