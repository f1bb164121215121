/**
 * The triage commit and its Undo are written by the history worker, off main's thread: while the
 * worker holds its transaction half-way (its test gate), main's timers go on firing and main's
 * own reads see nothing of it; the change answers once committed, before main has taken in its
 * tasks, and each task written is then announced once (main's change feed does not report the
 * worker's writes back as another process's). A worker that ends in the
 * middle fails the change with the history's sentence: nothing written, no step of Undo, and the
 * next change starts a new worker.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryError } from '../../../../electron/core/history/history-error';
import { HistoryPort } from '../../../../electron/core/history/history-port';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { triageInWorker } from '../../../../electron/core/history/history-writes';
import { HISTORY_FILE } from '../../../../electron/core/pictor-core';
import { TriageActions } from '../../../../electron/core/triage/triage-actions';
import { makeImage, makeTask } from '../../../support/task-records';
import { OFFLINE_START, offlineCore, type OfflineCore } from '../../../support/offline-core';

const TASKS = 2_000;

let core: OfflineCore;
let port: HistoryPort;
let cells: Int32Array;
let triage: TriageActions;

/** Resolves once `test` holds, looking on a timer; the turns main's loop made meanwhile. */
async function until(test: () => boolean): Promise<number> {
  let turns = 0;
  while (!test()) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    turns += 1;
  }
  return turns;
}

/** The worker holds its next write half-way until {@link letGo}. */
function holdNext(): void {
  Atomics.store(cells, 0, 0);
  Atomics.store(cells, 1, 0);
}

function letGo(): void {
  Atomics.store(cells, 0, 1);
  Atomics.notify(cells, 0);
}

/** The held write let go with cell 2 at 1: the worker ends on the spot (history-worker.ts). */
function endHeld(): void {
  Atomics.store(cells, 2, 1);
  letGo();
}

const ids = Array.from({ length: TASKS }, (_, n) => `t-${String(n).padStart(5, '0')}`);
const refs = ids.map((localId) => ({ localId, index: 0 }));
const ratings = () => ids.map((id) => core.history.get(id)?.images[0]?.rating ?? 0);

beforeEach(async () => {
  core = await offlineCore();
  core.history.putMany(
    ids.map((localId, n) =>
      makeTask({ localId, createdAt: 1_700_000_000_000 + n, images: [makeImage(0)] }),
    ),
  );
  const gate = new SharedArrayBuffer(12);
  cells = new Int32Array(gate);
  letGo();
  port = new HistoryPort(join(core.dir, 'data', HISTORY_FILE), { gate });
  triage = new TriageActions({
    engine: core.engine,
    triage: core.history.triage,
    now: () => OFFLINE_START,
    writes: triageInWorker(core.history, port),
  });
});

afterEach(async () => {
  letGo();
  // This test's own triage: its last announcements end before the core closes.
  await triage.settled();
  await port.dispose();
  await core.close();
});

describe('the triage commit in the history worker', { timeout: 120_000 }, () => {
  it('commits and undoes while main goes on, and announces each task once', async () => {
    core.engine.start();
    const announced = new Map<string, number>();
    const count = (localId: string) => announced.set(localId, (announced.get(localId) ?? 0) + 1);
    // Tasks announced with their whole record: none of the triaged ones (not live).
    const whole = new Set<string>();
    core.engine.onDidUpdate(({ record }) => {
      count(record.localId);
      whole.add(record.localId);
    });
    core.engine.onDidTriage((delta) => count(delta.localId));
    holdNext();
    const commit = triage.apply(refs, { kind: 'rating', rating: 4 });
    // Half of the tasks written in the worker's open transaction: main's timers fire, its
    // connection reads the history as it was, and the change has not answered.
    expect(await until(() => Atomics.load(cells, 1) === 1)).toBeGreaterThan(0);
    let answered = false;
    // How many tasks were announced when the change answered.
    let announcedAtAnswer = -1;
    void commit.then(() => {
      answered = true;
      announcedAtAnswer = announced.size;
    });
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(answered).toBe(false);
    expect(new Set(ratings())).toEqual(new Set([0]));
    letGo();
    const done = await commit;
    expect(done).toMatchObject({ changed: TASKS, unchanged: 0, refused: 0, tasks: TASKS });
    expect(new Set(ratings())).toEqual(new Set([4]));
    // The commit answered before main took in its tasks: they are announced after, in chunks.
    expect(announcedAtAnswer).toBe(0);
    const taken = await done.announced;
    expect(taken.length).toBe(TASKS);
    // Each as its triage delta: the image written, never the task's record.
    expect(new Set(taken.map((delta) => delta.images[0]?.rating))).toEqual(new Set([4]));
    expect(new Set(taken.map((delta) => delta.images.length))).toEqual(new Set([1]));
    expect(new Set(ids.map((id) => announced.get(id)))).toEqual(new Set([1]));
    expect(ids.filter((id) => whole.has(id))).toEqual([]);

    holdNext();
    const undo = triage.undo();
    expect(await until(() => Atomics.load(cells, 1) === 1)).toBeGreaterThan(0);
    expect(new Set(ratings())).toEqual(new Set([4]));
    letGo();
    const undone = await undo;
    expect(undone?.changed).toBe(TASKS);
    expect(new Set(ratings())).toEqual(new Set([0]));
    const back = (await undone?.announced) ?? [];
    expect(new Set(back.map((delta) => delta.images[0]?.rating ?? 0))).toEqual(new Set([0]));

    // Another process writes a task: once main's change feed has reported it, it has also had
    // its look at the worker's writes, which it must not report a second time.
    const other = HistoryStore.open(join(core.dir, 'data', HISTORY_FILE));
    other.put(makeTask({ localId: 'elsewhere', createdAt: 1_700_000_000_000 - 1 }));
    other.close();
    await until(() => announced.has('elsewhere'));
    expect(new Set(ids.map((id) => announced.get(id)))).toEqual(new Set([2]));
    expect(ids.filter((id) => whole.has(id))).toEqual([]);
  });

  it('fails a change whose worker ended mid-write with a sentence, nothing written', async () => {
    await triage.apply(refs.slice(0, 10), { kind: 'rating', rating: 2 });
    holdNext();
    const commit = triage.apply(refs, { kind: 'rating', rating: 5 });
    const failed = commit.catch((error: unknown) => error);
    await until(() => Atomics.load(cells, 1) === 1);
    endHeld();
    expect(await failed).toBeInstanceOf(HistoryError);
    expect(((await failed) as HistoryError).message).toMatch(/could not save to its history/);
    expect(ratings().filter((rating) => rating !== 0)).toEqual(Array(10).fill(2));
    // The step of Undo is still the change before; an Undo cut short the same way keeps it.
    holdNext();
    const undo = triage.undo().catch((error: unknown) => error);
    await until(() => Atomics.load(cells, 1) === 1);
    endHeld();
    expect(await undo).toBeInstanceOf(HistoryError);
    expect(triage.canUndo()).toEqual({ undo: true, redo: false });
    expect((await triage.undo())?.changed).toBe(10);
    expect(new Set(ratings())).toEqual(new Set([0]));
    expect(await triage.apply(refs, { kind: 'rating', rating: 5 })).toMatchObject({
      changed: TASKS,
    });
  });
});
