/**
 * The loaded task list keeps each batch's tasks in the order its submit made them: a page as it
 * lands, a batch that a page boundary split once the next page is in, and a new batch merged in
 * by upsertItems (which sorts by the history's order first).
 */
import { describe, expect, it } from 'vitest';
import { inBatchOrder } from '../../../../renderer/store/batch-order';
import { upsertItems } from '../../../../renderer/store/task-list-model';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import type { TaskItem } from '../../../../shared/ipc/contract';
import { makeTask } from '../../../support/task-records';

const item = (localId: string, over: Partial<TaskRecord> = {}): TaskItem => ({
  record: makeTask({ localId, ...over }),
  live: null,
});

/** A batch `id`'s tasks as the history lists them (by local id, descending), each at `places`. */
function listed(id: string, places: readonly number[], createdAt = 1_000): TaskItem[] {
  return places.map((batchIndex, n) =>
    item(`${id}-${String(places.length - n)}`, { batchId: id, batchIndex, createdAt }),
  );
}

const order = (items: readonly TaskItem[]) => items.map((one) => one.record.localId);
const places = (items: readonly TaskItem[]) => items.map((one) => one.record.batchIndex);

describe('inBatchOrder', () => {
  it('puts each run of one batch in its places, leaving every other task where it was', () => {
    const list = [
      item('alone'),
      ...listed('a', [2, 0, 1]),
      item('between'),
      ...listed('b', [1, 0]),
    ];
    const arranged = inBatchOrder(list);
    expect(order(arranged)).toEqual(['alone', 'a-2', 'a-1', 'a-3', 'between', 'b-1', 'b-2']);
    expect(places(arranged.slice(1, 4))).toEqual([0, 1, 2]);
    // Already in order: the very same array.
    expect(inBatchOrder(arranged)).toBe(arranged);
  });

  it('keeps tasks without a place (older batches) in the history’s order, after those with one', () => {
    const old = [
      item('o3', { batchId: 'o' }),
      item('o2', { batchId: 'o' }),
      item('o1', { batchId: 'o' }),
    ];
    expect(inBatchOrder(old)).toBe(old);
    const mixed = [item('m2', { batchId: 'm' }), item('m1', { batchId: 'm', batchIndex: 0 })];
    expect(order(inBatchOrder(mixed))).toEqual(['m1', 'm2']);
  });

  it('orders a batch split by a page boundary once the next page is appended', () => {
    const whole = listed('a', [3, 0, 2, 1]);
    const first = inBatchOrder([item('newer', { createdAt: 2_000 }), ...whole.slice(0, 2)]);
    expect(places(first.slice(1))).toEqual([0, 3]);
    expect(places(inBatchOrder([...first, ...whole.slice(2)]).slice(1))).toEqual([0, 1, 2, 3]);
  });

  it('holds after upsertItems merges a new batch into the loaded list', () => {
    const loaded = inBatchOrder(listed('a', [1, 2, 0]));
    const fresh = listed('b', [0, 2, 1], 5_000);
    const { items, added } = upsertItems(loaded, fresh, true);
    expect(added).toBe(3);
    expect(items.map((one) => [one.record.batchId, one.record.batchIndex])).toEqual([
      ['b', 0],
      ['b', 1],
      ['b', 2],
      ['a', 0],
      ['a', 1],
      ['a', 2],
    ]);
  });
});
