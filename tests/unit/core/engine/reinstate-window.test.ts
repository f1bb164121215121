/**
 * An Undo of a removal (RemovedTasks.reinstate) while its service still works on the task: the
 * history worker attaches the task again on its own connection while main waits for its answer.
 * A poll answer that lands in that window must not be written as a removed task's (the ledger's
 * watch) after the worker took the task back: after a restart it would be taken up as removed and
 * watched, and its images never fetched. A task that completes in the window is downloaded,
 * watched once, never sent again. The window is opened on purpose: the worker's write is done,
 * its answer held until the test lets it through, and the poll answered on the manual clock.
 * A task removed before its request left (queued after a 429, or a batch's waiting for its first)
 * is not sent, nor watched; its Undo sends it once.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { userWritesOn } from '../../../../electron/core/engine/user-writes';
import { TaskEngine } from '../../../../electron/core/engine/task-engine';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { reinstateTask, removeTask } from '../../../../electron/core/history/user-writes';
import type { UserWrites } from '../../../../electron/ports/user-writes';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { FakeGallery } from '../../../fakes/fake-gallery';
import { ManualClock, flushPromises } from '../../../fakes/manual-clock';
import { ScriptedServiceClient, serviceError } from '../../../fakes/scripted-service-client';
import { StaticCredentials } from '../../../fakes/static-credentials';
import { ACCOUNTS, BASE_URL, TARGET } from './engine-harness';
import { removeFolderSync, tempFolderSync } from '../../../support/temp-folders';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/**
 * An engine over a real history file, whose removals and Undos are written on a second
 * connection (the history worker's); `holdUndo` keeps the worker's answer to the next Undo back
 * (its write already made) until `letUndoThrough`.
 */
function reinstateHarness() {
  const temp = tempFolderSync('history');
  const file = join(temp, 'history.sqlite');
  const history = HistoryStore.open(file);
  const worker = HistoryStore.open(file);
  cleanups.push(() => {
    history.close();
    worker.close();
    removeFolderSync(temp);
  });
  const clock = new ManualClock();
  const client = new ScriptedServiceClient(clock, ACCOUNTS);
  const gallery = new FakeGallery();
  let answer: Promise<void> = Promise.resolve();
  let refused = false;
  let letThrough = (): void => undefined;
  const userWrites: UserWrites = {
    ...userWritesOn(history, history),
    remove: async (localId, watch) =>
      removeTask(worker, watch ? { localId, watch } : { localId }).removed,
    reinstate: async (record, watched) => {
      // The worker writes at once (or refuses: nothing written); its answer may be held.
      if (!refused) reinstateTask(worker, { record, watched });
      await answer;
      if (refused) throw new Error('database or disk is full');
    },
  };
  let ids = 0;
  const build = () =>
    new TaskEngine({
      client,
      history,
      removals: history,
      userWrites,
      gallery,
      credentials: new StaticCredentials(BASE_URL, 'sk-alice'),
      clock,
      random: () => 0.5,
      newId: () => `local-${++ids}`,
    });
  const h = {
    history,
    clock,
    client,
    gallery,
    engine: build(),
    /** The next Undo's answer waits for `letUndoThrough`; `refuse`: the worker refuses it. */
    holdUndo(options: { refuse?: boolean } = {}): void {
      refused = options.refuse === true;
      answer = new Promise((resolve) => (letThrough = resolve));
    },
    letUndoThrough: () => letThrough(),
    /** Stops the engine and starts another on the same library. */
    async restart(): Promise<TaskEngine> {
      await h.engine.stop();
      h.engine = build();
      h.engine.start();
      return h.engine;
    },
  };
  return h;
}

/** A task submitted and polled once (processing), then removed: watched for the ledger. */
async function removedWhileRunning(h: ReturnType<typeof reinstateHarness>): Promise<TaskRecord> {
  h.engine.start();
  const task = (await h.engine.submit({ prompt: 'removed, then undone' }, TARGET))[0]!;
  await h.clock.advance(3_000);
  expect(h.history.get(task.localId)).toMatchObject({ status: 'processing', polls: 1 });
  expect(await h.engine.remove(task.localId)).toBe(true);
  const [watched] = h.history.watched();
  expect(watched?.localId).toBe(task.localId);
  return watched!;
}

describe('an Undo of a removal while its service works on the task', () => {
  it('writes a poll answered during the reattach to the history, never back to the watch', async () => {
    const h = reinstateHarness();
    h.client.durationMs = 30_000;
    const removed = await removedWhileRunning(h);
    h.holdUndo();
    const undo = h.engine.reinstate(removed);
    // The worker has attached the task; main has not heard yet, and the next poll is answered.
    await h.clock.advance(3_000);
    expect(h.client.pollsOf('task-1')).toHaveLength(2);
    h.letUndoThrough();
    const back = await undo;
    expect(h.history.watched(), 'no longer watched as removed').toEqual([]);
    expect(h.history.get(removed.localId)).toMatchObject({ status: 'processing', polls: 2 });
    expect(back, 'the Undo answers the task as it is now').toMatchObject({ polls: 2 });

    await h.restart();
    expect(h.history.watched()).toEqual([]);
    await h.clock.advance(30_000);
    const [done] = await h.engine.whenSettled([removed.localId]);
    expect(
      done!.images.map((image) => image.state),
      'its images are fetched',
    ).toEqual(['saved']);
    expect(h.gallery.downloads).toHaveLength(1);
    expect(h.client.submits).toHaveLength(1);
  });

  it('fetches the images of a task that completes during the reattach, and watches it once', async () => {
    const h = reinstateHarness();
    h.client.durationMs = 5_000;
    const removed = await removedWhileRunning(h);
    h.holdUndo();
    const undo = h.engine.reinstate(removed);
    // The poll in the window finds the task completed.
    await h.clock.advance(3_000);
    expect(h.client.pollsOf('task-1')).toHaveLength(2);
    h.letUndoThrough();
    await undo;
    await flushPromises();
    const done = h.history.get(removed.localId);
    expect(done).toMatchObject({ status: 'completed', polls: 2 });
    expect(
      done!.images.map((image) => image.state),
      'its images are fetched',
    ).toEqual(['saved']);
    expect(h.history.watched()).toEqual([]);

    await h.restart();
    await h.clock.advance(30_000);
    await flushPromises();
    expect(h.client.pollsOf('task-1'), 'never watched again').toHaveLength(2);
    expect(h.gallery.downloads).toHaveLength(1);
    expect(h.client.submits, 'never sent again').toHaveLength(1);
    expect(h.history.watched()).toEqual([]);
  });

  it('keeps a task whose Undo the history refused watched, with the change of the window', async () => {
    const h = reinstateHarness();
    h.client.durationMs = 30_000;
    const removed = await removedWhileRunning(h);
    h.holdUndo({ refuse: true });
    const undo = h.engine.reinstate(removed);
    await h.clock.advance(3_000);
    h.letUndoThrough();
    await expect(undo).rejects.toThrow(/disk is full/);
    expect(h.history.get(removed.localId), 'still removed').toBeUndefined();
    expect(h.history.watched()).toMatchObject([{ localId: removed.localId, polls: 2 }]);
    await h.clock.advance(30_000);
    expect(h.history.watched(), 'watched until its service ended it').toEqual([]);
    expect(h.gallery.downloads, 'a removed task is not downloaded').toHaveLength(0);
  });
});

/** A task whose submit the service refused with a 429: queued again, its retry due in 5 s. */
async function queuedAfter429(prompt: string) {
  const h = reinstateHarness();
  h.client.durationMs = 30_000;
  h.client.submitSteps = [serviceError('rate_limited', { httpStatus: 429, retryAfterMs: 5_000 })];
  h.engine.start();
  const task = (await h.engine.submit({ prompt }, TARGET))[0]!;
  await flushPromises();
  const queued = h.history.get(task.localId)!;
  expect(queued).toMatchObject({ status: 'submitting', sendState: 'queued' });
  return { h, task, queued };
}

describe('a task removed before its request left', () => {
  it('is not sent when its retry after a 429 is due; an Undo sends it once', async () => {
    const { h, task, queued } = await queuedAfter429('removed while queued');
    expect(await h.engine.remove(task.localId)).toBe(true);
    expect(h.history.get(task.localId), 'out of the history').toBeUndefined();
    expect(h.history.watched(), 'nothing of it at the service to watch').toEqual([]);
    // The retry is due: nothing goes.
    await h.clock.advance(6_000);
    await flushPromises();
    expect(h.client.submits).toHaveLength(1);

    const back = await h.engine.reinstate(queued);
    expect(back).toMatchObject({ localId: task.localId });
    await flushPromises();
    expect(h.client.submits, 'the Undo sends it, once').toHaveLength(2);
    expect(h.history.get(task.localId)).toMatchObject({ status: 'processing', taskId: 'task-1' });
    await h.restart();
    await h.clock.advance(30_000);
    const [done] = await h.engine.whenSettled([task.localId]);
    expect(done!.images.map((image) => image.state)).toEqual(['saved']);
    expect(h.client.submits, 'never again').toHaveLength(2);
  });

  it('an Undo while its retry waits sends it once, when the retry is due', async () => {
    const { h, task, queued } = await queuedAfter429('removed, then undone at once');
    expect(await h.engine.remove(task.localId)).toBe(true);
    await h.engine.reinstate(queued);
    await flushPromises();
    // The waiting submit carries on; the Undo's send joins it instead of racing it for the mark.
    expect(h.client.submits).toHaveLength(1);
    await h.clock.advance(6_000);
    await flushPromises();
    expect(h.client.submits).toHaveLength(2);
    expect(h.history.get(task.localId)).toMatchObject({ status: 'processing', taskId: 'task-1' });
    await h.clock.advance(60_000);
    expect(h.client.submits, 'sent once after the 429, never again').toHaveLength(2);
  });

  it('in a batch waiting for its first: the others are sent, the removed one is not', async () => {
    const h = reinstateHarness();
    h.client.submitSteps = [serviceError('rate_limited', { httpStatus: 429, retryAfterMs: 5_000 })];
    h.engine.start();
    const tasks = await h.engine.submit({ prompt: 'a batch of three' }, TARGET, 3);
    await flushPromises();
    const removed = tasks[2]!.localId;
    expect(h.history.get(removed)).toMatchObject({ status: 'submitting', sendState: 'queued' });
    expect(await h.engine.remove(removed)).toBe(true);
    await h.clock.advance(6_000);
    await flushPromises();
    await h.clock.advance(3_000);
    await flushPromises();
    // The first (after its 429) and the second: never the one the user removed.
    expect(h.client.submits).toHaveLength(3);
    expect(h.history.get(tasks[1]!.localId)).toMatchObject({ status: 'processing' });
    expect(h.history.get(removed)).toBeUndefined();
    expect(h.history.watched()).toEqual([]);
  });

  it('one removed while its request was out and refused with a 429 is not sent again', async () => {
    const h = reinstateHarness();
    let refuse = (): void => undefined;
    h.client.submitSteps = [
      () =>
        new Promise<never>((_, reject) => {
          refuse = () =>
            reject(serviceError('rate_limited', { httpStatus: 429, retryAfterMs: 5_000 }));
        }),
    ];
    h.engine.start();
    const task = (await h.engine.submit({ prompt: 'removed while out' }, TARGET))[0]!;
    await flushPromises();
    expect(h.client.submits).toHaveLength(1);
    // Its request is out: it may reach the service, so it is watched for the ledger.
    expect(await h.engine.remove(task.localId)).toBe(true);
    expect(h.history.watched()).toMatchObject([{ localId: task.localId }]);
    refuse();
    await flushPromises();
    await h.clock.advance(6_000);
    await flushPromises();
    expect(h.client.submits, 'the service took nothing; the removal ends it').toHaveLength(1);
    expect(h.history.watched(), 'watched no more').toEqual([]);
    await h.restart();
    await h.clock.advance(30_000);
    expect(h.client.submits).toHaveLength(1);
  });
});
