/**
 * The page's side of `tasks:updated` (renderer/store/task-changes.ts, task-batch.ts): a batch is
 * one store update however many tasks it names; a live part changes only the bookkeeping and the
 * live state of a record the page has, and nothing for a task it has not loaded.
 */
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveState } from '../../../../shared/domain/live-state';
import type { TaskChange } from '../../../../shared/ipc/contract';
import { initStore, useAppStore } from '../../../../renderer/store/app-store';
import {
  selectRecord,
  selectTaskItems,
  selectGalleryItems,
} from '../../../../renderer/store/record-selectors';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { interceptWired, type InterceptedApi } from '../../../support/intercepted-api';
import { makeImage, makeTask } from '../../../support/task-records';
import { seedHistory } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

let main: InterceptedApi;
let stop: () => void = () => undefined;
const state = () => useAppStore.getState();
const shared = sharedWiredMain();
afterEach(() => stop());

const LIVE: LiveState = { nextPollAt: null, polling: false, downloads: 0 };

const running = (): Partial<TaskRecord> => ({ status: 'processing', finishedAt: null, polls: 1 });

/**
 * The store over the real main (tests/support/wired-api.ts) with `count` running tasks in its
 * history, loaded (seed-000000 is the newest). The page's side goes through the contract's
 * interceptor (tests/support/intercepted-api.ts), for the batches main would not send.
 */
async function withRunningTasks(count: number): Promise<void> {
  main = interceptWired(await shared());
  seedHistory(main, count, running);
  (window as { pictor?: unknown }).pictor = main.api;
  stop = initStore();
  await waitFor(() => expect(state().tasksCounted).toBe(true));
}

/** Main's record of seed task `n`. */
const task = (n: number): TaskRecord => main.runtime.core.history.get(id(n))!;

/**
 * Sends a batch as main's wiring does (the contract's schema, a copy that crosses), or `inject`s
 * it through the interceptor (a batch main would not send), and waits until the page's listeners
 * have had it: a listener added after the store's is called after it.
 */
async function send(changes: TaskChange[], how: 'main' | 'inject' = 'main'): Promise<void> {
  let off = (): void => undefined;
  const delivered = new Promise<void>((resolve) => {
    off = main.api.on('tasks:updated', () => resolve());
  });
  if (how === 'main') main.send('tasks:updated', changes);
  else main.intercept.event['tasks:updated'].inject(changes);
  await delivered;
  off();
}

const id = (n: number): string => `seed-${String(n).padStart(6, '0')}`;

/** A live part of seed task `n`: its poll count and when, and the live state. */
function livePart(
  n: number,
  updatedAt: number,
  live: Partial<LiveState> = {},
): Extract<TaskChange, { change: 'live' }> {
  return {
    change: 'live',
    localId: id(n),
    updatedAt,
    polls: 7,
    lastPolledAt: updatedAt - 10,
    live: { ...LIVE, ...live },
  };
}

/** Counts the store's updates while `work` runs. */
async function updatesDuring(work: () => Promise<void> | void): Promise<number> {
  let updates = 0;
  const unsubscribe = useAppStore.subscribe(() => (updates += 1));
  try {
    await work();
  } finally {
    unsubscribe();
  }
  return updates;
}

describe('a batch of task changes', () => {
  it('is one store update, however many tasks it names', async () => {
    await withRunningTasks(30);
    const later = selectTaskItems(state())[0]!.record.updatedAt + 1_000;
    const done = { ...task(3), status: 'completed' as const, updatedAt: later };
    const withImage = {
      ...task(4),
      status: 'completed' as const,
      images: [makeImage(0)],
      updatedAt: later,
    };
    const fresh = makeTask({ localId: 'new-1', createdAt: Date.UTC(2027, 0, 1) });
    const changes: TaskChange[] = [
      ...Array.from({ length: 20 }, (_, n) => livePart(n + 5, later, { progress: n })),
      { change: 'task', record: done, live: null },
      { change: 'task', record: withImage, live: null },
      { change: 'task', record: fresh, live: null },
      { change: 'removed', localId: id(0) },
      { change: 'removed', localId: id(1) },
    ];
    expect(await updatesDuring(() => send(changes))).toBe(1);

    const byId = new Map(selectTaskItems(state()).map((item) => [item.record.localId, item]));
    expect(byId.has(id(0)) || byId.has(id(1))).toBe(false);
    expect(selectTaskItems(state())[0]!.record.localId).toBe('new-1');
    expect(byId.get(id(3))!.record.status).toBe('completed');
    expect(byId.get(id(4))!.record.images).toHaveLength(1);
    expect(byId.get(id(12))!.live?.progress).toBe(7);
    expect(byId.get(id(12))!.record.polls).toBe(7);
    // 30 loaded, 2 removed, 1 new: 29; the list and the count move together.
    expect(selectTaskItems(state())).toHaveLength(29);
    expect(state().tasksTotal).toBe(29);
  });

  it('leaves the tasks it does not name as they were (the same objects)', async () => {
    await withRunningTasks(10);
    const before = selectTaskItems(state());
    await send([livePart(4, before[4]!.record.updatedAt + 1)]);
    const after = selectTaskItems(state());
    expect(after).not.toBe(before);
    for (const n of [0, 1, 2, 3, 5, 6, 7, 8, 9]) expect(after[n]).toBe(before[n]);
  });

  it('goes to the gallery in the same update: a task that completed shows its image', async () => {
    await withRunningTasks(3);
    await state().galleryLoad();
    const record = {
      ...task(1),
      status: 'completed' as const,
      images: [makeImage(0)],
      updatedAt: task(1).updatedAt + 1,
    };
    const count = await updatesDuring(() =>
      send([{ change: 'task', record, live: null }, livePart(2, record.updatedAt)]),
    );
    expect(count).toBe(1);
    expect(selectGalleryItems(state()).map((item) => item.localId)).toEqual([id(1)]);
    expect(selectTaskItems(state())[1]!.record.status).toBe('completed');
  });
});

describe('a live part', () => {
  it('moves the bookkeeping and the live state of the record the page has, nothing else', async () => {
    await withRunningTasks(3);
    const before = selectTaskItems(state())[1]!;
    const at = before.record.updatedAt + 3_000;
    await send([livePart(1, at, { nextPollAt: at + 3_000, queuePosition: 2 })]);
    const after = selectTaskItems(state())[1]!;
    expect(after.record).toEqual({
      ...before.record,
      updatedAt: at,
      polls: 7,
      lastPolledAt: at - 10,
    });
    expect(after.live).toEqual({ ...LIVE, nextPollAt: at + 3_000, queuePosition: 2 });
  });

  // Fault: an update older than the record the page has (main sends each change once, newest
  // last), injected through the contract's interceptor.
  it('older than the record the page has changes nothing', async () => {
    await withRunningTasks(3);
    const before = selectTaskItems(state());
    const stale = before[1]!.record.updatedAt - 1;
    expect(await updatesDuring(() => send([livePart(1, stale)], 'inject'))).toBe(0);
    expect(selectTaskItems(state())).toBe(before);
  });

  it('of a task the page has not loaded is ignored: no row, no store update', async () => {
    await withRunningTasks(3);
    const before = selectTaskItems(state());
    const unknown: TaskChange = { ...livePart(0, Date.UTC(2027, 0, 1)), localId: 'not-loaded' };
    expect(await updatesDuring(() => send([unknown]))).toBe(0);
    expect(selectTaskItems(state())).toBe(before);
    expect(state().tasksTotal).toBe(3);
  });

  it('reaches the task whose details are open from elsewhere (not in the list)', async () => {
    await withRunningTasks(2);
    const elsewhere = makeTask({ localId: 'from-costs', status: 'processing', finishedAt: null });
    state().tasksShowDetails({ record: elsewhere, live: null });
    const at = elsewhere.updatedAt + 1;
    await send([{ ...livePart(0, at, { progress: 40 }), localId: 'from-costs' }]);
    const shown = selectRecord(state().tasksDetailsId)(state());
    expect(shown?.record).toMatchObject({ localId: 'from-costs', polls: 7 });
    expect(shown?.live?.progress).toBe(40);
    expect(selectTaskItems(state()).map((item) => item.record.localId)).not.toContain('from-costs');
  });

  it('after its record in the same batch is applied onto that record', async () => {
    await withRunningTasks(2);
    const record = { ...task(1), hold: 'timed_out' as const, updatedAt: 5 + task(0).updatedAt };
    await send([
      { change: 'task', record, live: null },
      livePart(1, record.updatedAt + 1, { progress: 10 }),
    ]);
    expect(selectTaskItems(state())[1]!.record).toMatchObject({ hold: 'timed_out', polls: 7 });
    expect(selectTaskItems(state())[1]!.live?.progress).toBe(10);
  });
});

describe('a removal', () => {
  // Fault: a record's update and its removal in one batch, made up here rather than raced out of
  // main, injected through the contract's interceptor.
  it('after an update of the same task in one batch wins: the row goes', async () => {
    await withRunningTasks(3);
    const record = { ...task(2), status: 'completed' as const, updatedAt: task(0).updatedAt + 9 };
    await send(
      [
        { change: 'task', record, live: null },
        { change: 'removed', localId: id(2) },
      ],
      'inject',
    );
    expect(selectTaskItems(state()).map((item) => item.record.localId)).toEqual([id(0), id(1)]);
  });

  it('of a selected task with its details open clears both', async () => {
    await withRunningTasks(3);
    state().tasksOpenDetails(id(1));
    useAppStore.setState({ tasksSelection: { ids: new Set([id(1), id(2)]), anchor: id(1) } });
    await send([{ change: 'removed', localId: id(1) }]);
    expect(state().tasksDetailsId).toBeNull();
    expect([...state().tasksSelection.ids]).toEqual([id(2)]);
  });
});
