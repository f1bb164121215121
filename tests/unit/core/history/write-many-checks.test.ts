/**
 * A write of many records checks each record once (history-records.ts `writeMany`): the records
 * given are checked before the transaction, and inside it only a record its `admit` made anew is
 * checked again. Counted at the schema's own parse, the one check every record passes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { taskRecordSchema, type TaskRecord } from '../../../../shared/domain/task-record';
import { HistoryError } from '../../../../electron/core/history/history-error';
import { makeTask } from '../../../support/task-records';
import { historyStorePerTest } from './history-fixtures';

const history = historyStorePerTest();

function parses() {
  return vi.spyOn(taskRecordSchema(), 'safeParse');
}

afterEach(() => {
  vi.restoreAllMocks();
});

const tasks = (n: number): TaskRecord[] =>
  Array.from({ length: n }, (_, k) => makeTask({ createdAt: 1_000 + k, prompt: `task ${k}` }));

describe('a write of many records', () => {
  it('checks each record once, through putMany and putManyCounted', () => {
    const parse = parses();
    history.store.putMany(tasks(7));
    expect(parse).toHaveBeenCalledTimes(7);
    parse.mockClear();
    history.store.putManyCounted(tasks(5));
    expect(parse).toHaveBeenCalledTimes(5);
    expect(history.store.count()).toBe(12);
  });

  it('checks again only what admit made anew, and refuses a record it made unreadable', () => {
    const given = tasks(6);
    const parse = parses();
    const written = history.store.admitMany(given, undefined, (valid) => valid);
    expect(parse).toHaveBeenCalledTimes(6);
    expect(written.map((record) => record.localId)).toEqual(given.map((r) => r.localId));
    parse.mockClear();
    const renamed = tasks(4);
    history.store.admitMany(renamed, undefined, (valid) =>
      valid.map((record, k) => (k === 0 ? { ...record, request: { prompt: 'admitted' } } : record)),
    );
    // Four given, one of them made anew by admit: five checks.
    expect(parse).toHaveBeenCalledTimes(5);
    expect(history.store.get(renamed[0]!.localId)?.request.prompt).toBe('admitted');
    const spoiled = tasks(3);
    expect(() =>
      history.store.admitMany(spoiled, undefined, (valid) =>
        valid.map((record, k) => (k === 1 ? { ...record, localId: '' } : record)),
      ),
    ).toThrow(HistoryError);
    expect(spoiled.map((record) => history.store.get(record.localId))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuses a crafted record among many and writes none of them', () => {
    const given = tasks(4);
    const crafted = { ...given[2]!, taskId: 'id\u202Ewith a bidi mark' };
    expect(() => history.store.putMany([...given.slice(0, 2), crafted, given[3]!])).toThrow(
      HistoryError,
    );
    expect(history.store.count()).toBe(0);
  });
});
