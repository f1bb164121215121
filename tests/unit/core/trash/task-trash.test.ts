/**
 * Removing tasks with Undo (core/trash/trash-operations.ts), over the real engine and an
 * in-memory history (the engine tests' harness): the record is held in the journal before it leaves the history, comes back
 * as it was, is removed for good when the time to undo ends, and an Undo cut short is finished
 * at the next start. Also: the app's quit waits a bounded time for an operation in flight.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TrashJournal } from '../../../../electron/core/trash/trash-journal';
import { TrashOperations } from '../../../../electron/core/trash/trash-operations';
import { TARGET, engineHarness } from '../engine/engine-harness';
import { KEEP_MS, galleryWithImages } from './trash-fixture';
import { testFolder } from '../../../support/per-test';

async function engineWithTasks(count: number) {
  const { clock, history, engine } = engineHarness();
  const records = await engine.submit({ prompt: 'a task to remove' }, TARGET, count);
  const journalDir = await testFolder('journal');
  const open = () =>
    new TrashOperations({
      journal: new TrashJournal(journalDir),
      core: { engine, gallery: { root: '/no-gallery', resolve: (path) => path } },
      clock,
      keepMs: KEEP_MS,
      sendToSystemTrash: () => Promise.reject(new Error('no files here')),
    });
  const ids = records.map((record) => record.localId);
  return { clock, history, engine, ids, journalDir, ops: open(), open };
}

describe('removing tasks', () => {
  it('holds the records for Undo and puts them back as they were', async () => {
    const t = await engineWithTasks(3);
    const before = t.ids.map((id) => t.history.get(id));
    const { removed, skipped } = await t.ops.removeTasks([...t.ids, 'unknown']);
    expect(removed).toEqual(t.ids);
    expect(skipped).toBe(1);
    expect(t.ids.map((id) => t.history.get(id))).toEqual([undefined, undefined, undefined]);
    expect(await readdir(t.journalDir)).toHaveLength(1);
    const outcome = await t.ops.restoreTasks(t.ids);
    expect(outcome.failed).toBe(0);
    expect(outcome.records.map((record) => record.localId)).toEqual(t.ids);
    expect(t.ids.map((id) => t.history.get(id)?.request)).toEqual(before.map((r) => r?.request));
    expect(await readdir(t.journalDir)).toEqual([]);
  });

  it('removes them for good when the time to undo ends; Undo then says so', async () => {
    const t = await engineWithTasks(1);
    await t.ops.removeTasks(t.ids);
    await t.clock.advance(KEEP_MS);
    await t.ops.settle(0);
    expect(await readdir(t.journalDir)).toEqual([]);
    const outcome = await t.ops.restoreTasks(t.ids);
    expect(outcome.failed).toBe(1);
    expect(String(outcome.problem)).toMatch(/can no longer be put back/);
    expect(t.history.get(t.ids[0]!)).toBeUndefined();
  });

  it('finishes an Undo cut short at the next start; a removal alone stays done', async () => {
    const t = await engineWithTasks(2);
    await t.ops.removeTasks([t.ids[0]!]);
    await t.ops.removeTasks([t.ids[1]!]);
    const journal = new TrashJournal(t.journalDir);
    const { batches } = await journal.load();
    const first = batches.find(
      (batch) => batch.kind === 'tasks' && batch.entries[0]!.record.localId === t.ids[0],
    )!;
    await journal.saveRestore({
      v: 1,
      id: '00000000-0000-4000-8000-000000000009',
      entries: [{ batch: first.id, entry: first.entries[0]!.id }],
    });
    await t.open().replay();
    expect(t.history.get(t.ids[0]!)?.localId).toBe(t.ids[0]);
    expect(t.history.get(t.ids[1]!)).toBeUndefined();
    expect(await readdir(t.journalDir)).toEqual([]);
  });

  it('puts an unfinished task back to work: it is polled again', async () => {
    const t = await engineWithTasks(1);
    t.engine.start();
    await t.clock.advance(0);
    await t.ops.removeTasks(t.ids);
    const [record] = (await t.ops.restoreTasks(t.ids)).records;
    expect(record?.localId).toBe(t.ids[0]);
    expect(t.engine.live(t.ids[0]!).polling || t.engine.live(t.ids[0]!).nextPollAt !== null).toBe(
      true,
    );
    await t.engine.stop();
  });
});

describe('quitting while an operation is under way', () => {
  it('waits at most the bound; what an Undo under way brings back is not sent on', async () => {
    const g = await galleryWithImages(2);
    await g.ops.deleteImages(g.refs);
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // A slow disk: the Undo's journal write takes longer than the quit waits.
    const journal = new TrashJournal(g.journalDir);
    const save = journal.saveRestore.bind(journal);
    journal.saveRestore = async (restore) => {
      await gate;
      return save(restore);
    };
    (g.ops as unknown as { options: { journal: TrashJournal } }).options.journal = journal;
    const undo = g.ops.restoreImages(g.refs);
    expect(g.ops.inFlight()).not.toBeNull();
    const settling = g.ops.settle(5_000);
    await g.clock.advance(5_000);
    expect(await settling).toBe(false);
    await g.ops.empty();
    expect(g.trashed).toEqual([]);
    open();
    expect((await undo).records).toHaveLength(2);
    expect(g.ops.inFlight()).toBeNull();
    expect(await g.ops.settle(5_000)).toBe(true);
    expect(g.trashed).toEqual([]);
  });
});
