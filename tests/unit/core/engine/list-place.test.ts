import { describe, expect, it } from 'vitest';
import { placedInList } from '../../../../electron/core/engine/list-place';
import { MAX_DATE_MS } from '../../../../shared/domain/limits';
import {
  newTaskRecord,
  taskRecordSchema,
  type TaskRecord,
} from '../../../../shared/domain/task-record';

const made = (localId: string, at: number): TaskRecord =>
  newTaskRecord(
    {
      localId,
      taskId: null,
      origin: 'submitted',
      endpoint: 'http://127.0.0.1:1',
      account: 'acct',
      request: { prompt: 'p' },
    },
    at,
  );

describe('where new tasks list', () => {
  it('a submit made behind the newest task lists together just above it', () => {
    const placed = placedInList([made('a', 1_000), made('b', 1_000)], 5_000);
    expect(placed.map((record) => [record.createdAt, record.listedAt])).toEqual([
      [1_000, 5_001],
      [1_000, 5_001],
    ]);
  });

  it('a clock at or past the newest, or an empty library, leaves the records as made', () => {
    const records = [made('a', 5_000)];
    expect(placedInList(records, 5_000)).toEqual(records);
    expect(placedInList(records, 4_999)).toEqual(records);
    expect(placedInList(records, null)).toEqual(records);
  });

  it('never past the last date a record may hold (a crafted task dated there)', () => {
    const [placed] = placedInList([made('a', 1_000)], MAX_DATE_MS);
    expect(placed?.listedAt).toBe(MAX_DATE_MS);
    // Read back as written: a value past it would be dropped on read, the task listed as made.
    expect(taskRecordSchema().parse(placed).listedAt).toBe(MAX_DATE_MS);
  });
});
