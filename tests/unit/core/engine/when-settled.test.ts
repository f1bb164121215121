/**
 * whenSettled: resolves once every task needs nothing more, and an announcement costs reads of
 * the tasks still waited for, not of every task (a settled task is a history read each time).
 */
import { describe, expect, it } from 'vitest';
import { whenSettled, type SettledView } from '../../../../electron/core/engine/when-settled';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeTask } from '../../../support/task-records';

/** A view over records in a map, counting reads, with announcements fired by hand. */
function viewOf(ids: readonly string[]) {
  const records = new Map<string, TaskRecord>(
    ids.map((localId) => [localId, makeTask({ localId, status: 'processing' })]),
  );
  const listeners = new Set<() => void>();
  let reads = 0;
  const view: SettledView = {
    get(localId) {
      reads += 1;
      return records.get(localId);
    },
    isSettled: (record) => record.status === 'completed' || record.status === 'failed',
    subscribe(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
  };
  return {
    view,
    set(localId: string, status: TaskRecord['status']) {
      records.set(localId, makeTask({ localId, status }));
    },
    remove(localId: string) {
      records.delete(localId);
    },
    announce() {
      for (const listener of [...listeners]) listener();
    },
    get reads() {
      return reads;
    },
    get listeners() {
      return listeners.size;
    },
  };
}

/** Whether the promise has settled, read after the microtasks queued so far ran. */
async function isDone(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('whenSettled', () => {
  it('resolves with the records in the order asked once the last task settles', async () => {
    const state = viewOf(['a', 'b', 'c']);
    const waiting = whenSettled(state.view, ['c', 'a', 'b', 'a']);
    state.set('a', 'completed');
    state.announce();
    state.set('c', 'failed');
    state.announce();
    expect(await isDone(waiting)).toBe(false);
    state.set('b', 'completed');
    state.announce();
    const records = await waiting;
    expect(records.map((record) => [record.localId, record.status])).toEqual([
      ['c', 'failed'],
      ['a', 'completed'],
      ['b', 'completed'],
      ['a', 'completed'],
    ]);
    expect(state.listeners).toBe(0);
  });

  it('counts a task removed from the history as settled and leaves it out', async () => {
    const state = viewOf(['a', 'b']);
    const waiting = whenSettled(state.view, ['a', 'b']);
    state.set('a', 'completed');
    state.remove('b');
    state.announce();
    expect((await waiting).map((record) => record.localId)).toEqual(['a']);
  });

  it('resolves at once, without listening, when every task is already settled', async () => {
    const state = viewOf(['a', 'b']);
    state.set('a', 'completed');
    state.set('b', 'failed');
    expect((await whenSettled(state.view, ['a', 'b'])).length).toBe(2);
    expect(state.listeners).toBe(0);
  });

  it('reads only the tasks still waited for at each announcement', async () => {
    const ids = Array.from({ length: 200 }, (_, n) => `t${n}`);
    const state = viewOf(ids);
    const waiting = whenSettled(state.view, ids);
    for (const id of ids.slice(0, 199)) {
      state.set(id, 'completed');
      state.announce();
    }
    // Each task settled is read once more when found settled; the one left once per announcement.
    const before = state.reads;
    for (let n = 0; n < 100; n += 1) state.announce();
    expect(state.reads - before).toBe(100);
    expect(await isDone(waiting)).toBe(false);
    state.set('t199', 'completed');
    state.announce();
    expect((await waiting).length).toBe(200);
    // 200 tasks, ~300 announcements: far under one read of every task per announcement.
    expect(state.reads).toBeLessThan(4 * ids.length + 100);
  });

  it('waits again for a task that became busy after it settled (a retry)', async () => {
    const state = viewOf(['a', 'b']);
    const waiting = whenSettled(state.view, ['a', 'b']);
    state.set('a', 'completed');
    state.announce();
    // 'a' is retried while 'b' still runs; then 'b' ends: the last pass finds 'a' busy again.
    state.set('a', 'processing');
    state.set('b', 'completed');
    state.announce();
    expect(await isDone(waiting)).toBe(false);
    state.set('a', 'completed');
    state.announce();
    expect((await waiting).map((record) => record.status)).toEqual(['completed', 'completed']);
  });
});
