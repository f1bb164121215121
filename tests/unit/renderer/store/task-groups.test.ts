import { describe, expect, it } from 'vitest';
import type { TaskItem } from '../../../../shared/ipc/contract';
import { groupItems, rowOfTask } from '../../../../renderer/store/task-list-model';
import { makeTask } from '../../../support/task-records';

function items(...batches: (string | null)[]): TaskItem[] {
  return batches.map((batchId, i) => ({
    record: makeTask({ localId: `t${i}`, ...(batchId ? { batchId } : {}) }),
    live: null,
  }));
}

describe('groupItems', () => {
  it('joins neighbours of one batch and leaves every other task alone', () => {
    const groups = groupItems(items(null, 'a', 'a', 'a', null, 'b', 'b', 'a'));
    expect(groups).toEqual([
      { start: 0, size: 1, batchId: null },
      { start: 1, size: 3, batchId: 'a' },
      { start: 4, size: 1, batchId: null },
      { start: 5, size: 2, batchId: 'b' },
      // Not next to the others (another task between): its own row.
      { start: 7, size: 1, batchId: 'a' },
    ]);
  });

  it('keeps a task the list cannot draw, and a batch id that is not text, out of groups', () => {
    const list = items('a', 'a', 'a');
    const damaged = { ...list[1]!, record: { ...list[1]!.record, batchId: 42 } } as unknown;
    expect(groupItems([list[0]!, damaged as TaskItem, list[2]!]).map((g) => g.size)).toEqual([
      1, 1, 1,
    ]);
    expect(groupItems(list, (item) => item.record.localId !== 't1').map((g) => g.size)).toEqual([
      1, 1, 1,
    ]);
    expect(groupItems([])).toEqual([]);
  });

  it('asks whether a task may join a group only of tasks that have a batch', () => {
    // The feed's check is a schema check of the whole record, the dearest step of a first frame.
    const asked: string[] = [];
    const groups = groupItems(items(null, 'a', 'a', null, null), (item) => {
      asked.push(item.record.localId);
      return true;
    });
    expect(groups.map((g) => g.size)).toEqual([1, 2, 1, 1]);
    expect(asked.sort()).toEqual(['t1', 't2']);
  });
});

describe('rowOfTask', () => {
  it('finds the row of a loaded task and the placeholder row of one not loaded', () => {
    const groups = groupItems(items(null, 'a', 'a', 'a', null, 'b', 'b'));
    expect([0, 1, 2, 3, 4, 5, 6].map((index) => rowOfTask(groups, 7, index))).toEqual([
      0, 1, 1, 1, 2, 3, 3,
    ]);
    // 4 rows for 7 loaded tasks; task 7 is the first not loaded: row 4, task 10 row 7.
    expect(rowOfTask(groups, 7, 7)).toBe(4);
    expect(rowOfTask(groups, 7, 10)).toBe(7);
    expect(rowOfTask([], 0, 3)).toBe(3);
  });
});
