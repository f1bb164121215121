import { describe, expect, it } from 'vitest';
import type { TaskItem } from '../../../../shared/ipc/contract';
import { fresher } from '../../../../renderer/store/records-table';
import {
  EMPTY_FILTER,
  isFiltered,
  listQuery,
  upsertItems,
} from '../../../../renderer/store/task-list-model';
import { makeTask } from '../../../support/task-records';

const item = (overrides: Parameters<typeof makeTask>[0]): TaskItem => ({
  record: makeTask(overrides),
  live: null,
});

describe('task list model', () => {
  it('turns chips into the statuses of tasks:list', () => {
    expect(listQuery(EMPTY_FILTER)).toEqual({});
    expect(
      listQuery({ search: ' fox ', groups: ['active', 'failed'], favourite: true, provider: '' }),
    ).toEqual({
      search: 'fox',
      statuses: ['submitting', 'processing', 'failed', 'not_found'],
      favourite: true,
    });
    expect(listQuery({ ...EMPTY_FILTER, provider: 'bfl' })).toEqual({ provider: 'bfl' });
    expect(isFiltered({ ...EMPTY_FILTER, provider: 'bfl' })).toBe(true);
    expect(isFiltered(EMPTY_FILTER)).toBe(false);
    expect(isFiltered({ ...EMPTY_FILTER, search: '  ' })).toBe(false);
    expect(isFiltered({ ...EMPTY_FILTER, favourite: true })).toBe(true);
  });

  it('never replaces a newer state with an older one', () => {
    const older = item({ localId: 'a', updatedAt: 10, status: 'processing' });
    const newer = item({ localId: 'a', updatedAt: 20, status: 'completed' });
    expect(fresher(newer, older)).toBe(newer);
    expect(fresher(older, newer)).toBe(newer);
  });

  it('inserts new items in order, replaces known ones, and skips what belongs to unloaded pages', () => {
    const loaded = [item({ localId: 'b', createdAt: 200 }), item({ localId: 'c', createdAt: 100 })];
    const fresh = item({ localId: 'a', createdAt: 300 });
    const updated = item({ localId: 'c', createdAt: 100, updatedAt: 999, favourite: true });
    const deep = item({ localId: 'z', createdAt: 50 });
    const merged = upsertItems(loaded, [deep, updated, fresh], false);
    expect(merged.items.map((entry) => entry.record.localId)).toEqual(['a', 'b', 'c']);
    expect(merged.items[2]!.record.favourite).toBe(true);
    expect(merged.added).toBe(1);
    // Once everything is loaded, an older item has its place too.
    expect(upsertItems(loaded, [deep], true).items.at(-1)!.record.localId).toBe('z');
  });
});
