import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import type { TaskItem } from '../../../../shared/ipc/contract';
import type { AppState } from '../../../../renderer/store/app-state';
import {
  median,
  selectTypicalDuration,
  typicalDuration,
} from '../../../../renderer/store/typical-duration';
import { RECORD_CREATED, makeTaskRecord } from '../../../support/task-records';

let seq = 0;
/** A task submitted at `at` that took `seconds` (or did not finish, with `overrides`). */
function took(seconds: number, overrides: Partial<TaskRecord> = {}, at = RECORD_CREATED): TaskItem {
  seq += 1;
  const record = makeTaskRecord(
    { localId: `t${seq}`, submittedAt: at, finishedAt: at + seconds * 1000, ...overrides },
    at,
  );
  return { record, live: null };
}

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([])).toBeNull();
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
  });
});

describe('typicalDuration', () => {
  it('is unknown with fewer than three completed tasks to go by', () => {
    const items = [
      took(10),
      took(20),
      took(99, { status: 'failed' }),
      took(99, { status: 'processing', finishedAt: null }),
    ];
    expect(typicalDuration(items)).toBeNull();
    expect(typicalDuration([...items, took(30)])).toBe(20_000);
  });

  it('uses tasks of the same model when three of them are known, else all', () => {
    const fast = { request: { prompt: 'p', model: 'fast' } };
    const items = [took(5, fast), took(6, fast), took(40), took(50), took(60)];
    expect(typicalDuration(items, 'fast')).toBe(40_000);
    const more = [...items, took(7, fast)];
    expect(typicalDuration(more, 'fast')).toBe(6_000);
    expect(typicalDuration(more, 'unknown-model')).toBe(23_500);
  });

  it('counts only the twenty most recent', () => {
    const old = Array.from({ length: 20 }, () => took(100, {}, RECORD_CREATED));
    const recent = Array.from({ length: 20 }, () => took(10, {}, RECORD_CREATED + 3_600_000));
    expect(typicalDuration([...old, ...recent])).toBe(10_000);
  });

  it('as a selector over the loaded tasks', () => {
    const items = [took(10), took(20), took(30)];
    const state = {
      tasksIds: items.map((item) => item.record.localId),
      records: new Map(items.map((item) => [item.record.localId, item])),
    } as unknown as AppState;
    expect(selectTypicalDuration()(state)).toBe(20_000);
    expect(selectTypicalDuration('x')(state)).toBe(20_000);
  });
});
