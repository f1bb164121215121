/**
 * The page's one records table (renderer/store/records-slice.ts): each task is held once, by its
 * local id, and the task list, the compare view and the details are id lists over it. A record
 * that changes is written once and shows changed in every view that names it; a view it leaves
 * (main's `views`) drops its id while the others keep showing the record.
 */
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskChange, TaskItem } from '../../../../shared/ipc/contract';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { initStore, useAppStore } from '../../../../renderer/store/app-store';
import { keyIndexOf } from '../../../../renderer/store/gallery-keys';
import {
  selectCompareItems,
  selectRecord,
  selectTaskItems,
  selectGalleryItems,
} from '../../../../renderer/store/record-selectors';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

let main: WiredApi;
let stop: () => void = () => undefined;
const state = () => useAppStore.getState();
const shared = sharedWiredMain();
afterEach(() => {
  stop();
  useAppStore.setState({ compareGroup: null, compareIds: [] });
});

const GROUP = '6f1c2a52-8a6e-4f57-9d1c-0b7b4f0e2a11';
const id = (n: number): string => `seed-${String(n).padStart(6, '0')}`;

/** The store over the real main with `count` running tasks, the first two of one compare group. */
async function withTasks(count: number): Promise<void> {
  await withHistory(count, (n) => ({
    status: 'processing',
    finishedAt: null,
    ...(n < 2 ? { compare: { group: GROUP, slot: n + 1, label: `Target ${String(n + 1)}` } } : {}),
  }));
}

/** The store over the real main with the history `seedHistory` builds. */
async function withHistory(count: number, build: Parameters<typeof seedHistory>[2]): Promise<void> {
  main = await shared();
  seedHistory(main, count, build);
  (window as { pictor?: unknown }).pictor = main.api;
  stop = initStore();
  await waitFor(() => expect(state().tasksCounted).toBe(true));
}

/** Opens the compare view on the group, as `compare:show` answers it. */
async function openCompare(): Promise<void> {
  await state().compareOpen(GROUP);
  await waitFor(() => expect(state().compareIds).toHaveLength(2));
}

/** Sends a batch as main's wiring does and waits until the page's listeners have had it. */
async function send(changes: TaskChange[]): Promise<void> {
  let off = (): void => undefined;
  const delivered = new Promise<void>((resolve) => {
    off = main.api.on('tasks:updated', () => resolve());
  });
  main.send('tasks:updated', changes);
  await delivered;
  off();
}

/** Main's record of seed task `n`, completed with one image. */
function completed(n: number): TaskRecord {
  const record = main.runtime.core.history.get(id(n))!;
  return {
    ...record,
    status: 'completed',
    images: [makeImage(0)],
    updatedAt: record.updatedAt + 5,
  };
}

const listed = (localId: string): TaskItem | undefined =>
  selectTaskItems(state()).find((item) => item.record.localId === localId);
const cell = (localId: string): TaskItem | undefined =>
  selectCompareItems(state()).find((item) => item.record.localId === localId);

describe('one records table', () => {
  it('holds each task once: the task list and the compare view name the same record', async () => {
    await withTasks(4);
    await openCompare();
    expect(state().tasksIds).toContain(id(0));
    expect(state().compareIds).toEqual([id(0), id(1)]);
    expect(listed(id(0))).toBe(state().records.get(id(0)));
    expect(cell(id(0))).toBe(state().records.get(id(0)));
  });

  it('shows a record updated once as updated in the task list, the gallery and a compare cell', async () => {
    await withTasks(4);
    await openCompare();
    await state().galleryLoad();
    const record = completed(1);
    await send([{ change: 'task', record, live: null }]);
    const written = state().records.get(id(1))!;
    expect(written.record).toEqual(record);
    expect(listed(id(1))).toBe(written);
    expect(cell(id(1))).toBe(written);
    expect(selectGalleryItems(state()).find((item) => item.localId === id(1))?.image).toEqual(
      record.images[0],
    );
  });

  it("writes an action's own answer once: the compare cell shows it too", async () => {
    await withTasks(4);
    await openCompare();
    const record = completed(0);
    // A row action's answer (a cancel, a retry) is applied to the list without an event.
    state().tasksApplyUpdate({ record, live: null });
    expect(listed(id(0))?.record.status).toBe('completed');
    expect(cell(id(0))?.record.status).toBe('completed');
  });

  it('drops a record from the view main says it left, and keeps it in the others', async () => {
    await withTasks(4);
    await openCompare();
    const record = completed(1);
    await send([{ change: 'task', record, live: null, views: { tasks: false } }]);
    expect(state().tasksIds).not.toContain(id(1));
    expect(state().tasksTotal).toBe(3);
    expect(cell(id(1))?.record.status).toBe('completed');
  });

  it('takes a task into the list when main says it joins, and keeps no record no view shows', async () => {
    await withTasks(3);
    const joining = { ...completed(2), localId: 'joins', createdAt: Date.UTC(2030, 0, 1) };
    const unseen = { ...completed(2), localId: 'unseen', createdAt: Date.UTC(2030, 0, 1) };
    state().tasksSetSearch('number');
    await waitFor(() => expect(state().tasksCounted).toBe(true));
    await send([
      { change: 'task', record: joining, live: null, views: { tasks: true } },
      { change: 'task', record: unseen, live: null, views: { tasks: false } },
    ]);
    expect(state().tasksIds[0]).toBe('joins');
    expect(state().records.has('joins')).toBe(true);
    expect(state().records.has('unseen')).toBe(false);
  });

  it('forgets a removed task in every view at once', async () => {
    await withTasks(3);
    await openCompare();
    state().tasksOpenDetails(id(0));
    await send([{ change: 'removed', localId: id(0) }]);
    expect(state().records.has(id(0))).toBe(false);
    expect(state().tasksIds).not.toContain(id(0));
    expect(selectCompareItems(state()).map((item) => item.record.localId)).toEqual([id(1)]);
    expect(selectRecord(state().tasksDetailsId)(state())).toBeNull();
  });

  it('answers the same list while the records it names are unchanged', async () => {
    await withTasks(4);
    await openCompare();
    const tasks = selectTaskItems(state());
    const cells = selectCompareItems(state());
    // A change of a task only the list shows leaves the compare view's items as they were.
    await send([{ change: 'task', record: completed(3), live: null }]);
    expect(selectTaskItems(state())).not.toBe(tasks);
    expect(selectCompareItems(state())).toBe(cells);
  });
  it('lets a record go once it has left every view, and keeps one a view still names', async () => {
    await withTasks(4);
    await openCompare();
    // Compare's first task leaves the list, the second stays in it.
    await send([{ change: 'task', record: completed(0), live: null, views: { tasks: false } }]);
    expect(state().records.has(id(0))).toBe(true);
    state().compareClose();
    expect(state().records.has(id(0))).toBe(false);
    expect(state().records.has(id(1))).toBe(true);
    expect(listed(id(1))).toBe(state().records.get(id(1)));
  });

  it('keeps a task opened alone (from the Costs screen) while its details are open', async () => {
    await withTasks(2);
    const alone = { record: { ...completed(1), localId: 'costs-only' }, live: null };
    state().tasksShowDetails(alone);
    expect(selectRecord(state().tasksDetailsId)(state())).toBe(alone);
    state().tasksOpenViewer({ localId: 'costs-only', index: 0 });
    state().tasksOpenDetails(null);
    expect(state().records.has('costs-only')).toBe(true);
    state().tasksCloseViewer();
    expect(state().records.has('costs-only')).toBe(false);
    expect(state().records.size).toBe(state().tasksIds.length);
  });

  it('reads again only the image a star changed, and the grid keeps its key index', async () => {
    await withHistory(120, () => ({ images: [makeImage(0)] }));
    await state().galleryLoad();
    const before = selectGalleryItems(state());
    expect(before.length).toBeGreaterThan(50);
    const index = keyIndexOf(before);
    const refs = state().galleryRefs;
    const target = before[7]!;
    const record = main.runtime.core.history.get(target.localId)!;
    const rating = target.image.rating === 4 ? 2 : 4;
    const rated: TaskRecord = {
      ...record,
      images: record.images.map((image) => ({ ...image, rating })),
      updatedAt: record.updatedAt + 5,
    };
    await send([{ change: 'task', record: rated, live: null }]);
    // Every read of a record the gallery's images make from here on is counted.
    const reads = vi.spyOn(state().records, 'get');
    const after = selectGalleryItems(state());
    expect(after[7]!.image.rating).toBe(rating);
    expect(after.filter((item, n) => item !== before[n])).toEqual([after[7]]);
    expect(reads.mock.calls.length).toBeLessThanOrEqual(1);
    expect(keyIndexOf(after)).toBe(index);
    // Every image kept its place: the gallery's refs are the same array, not compared anew.
    expect(state().galleryRefs).toBe(refs);
  });
});
