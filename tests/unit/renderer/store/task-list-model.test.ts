import { describe, expect, it } from 'vitest';
import type { TaskItem } from '../../../../shared/ipc/contract';
import {
  EMPTY_FILTER,
  fresher,
  isFiltered,
  listQuery,
  matchesFilter,
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

  it('matches records like the history does (prompt substring, any case)', () => {
    const record = makeTask({ prompt: 'A Red Fox', status: 'submit_unknown' });
    expect(matchesFilter(record, { ...EMPTY_FILTER, search: 'red fox' })).toBe(true);
    expect(matchesFilter(record, { ...EMPTY_FILTER, search: 'wolf' })).toBe(false);
    expect(matchesFilter(record, { ...EMPTY_FILTER, groups: ['notSent'] })).toBe(true);
    expect(matchesFilter(record, { ...EMPTY_FILTER, groups: ['completed'] })).toBe(false);
    expect(matchesFilter(record, { ...EMPTY_FILTER, favourite: true })).toBe(false);
    // A record from before services had profiles is today's contract's.
    expect(matchesFilter(record, { ...EMPTY_FILTER, provider: 'pictor' })).toBe(true);
    expect(matchesFilter(record, { ...EMPTY_FILTER, provider: 'fal' })).toBe(false);
    const fal = { ...record, provider: 'fal' as const };
    expect(matchesFilter(fal, { ...EMPTY_FILTER, provider: 'fal' })).toBe(true);
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
    const merged = upsertItems(loaded, [deep, updated, fresh], EMPTY_FILTER, false);
    expect(merged.items.map((entry) => entry.record.localId)).toEqual(['a', 'b', 'c']);
    expect(merged.items[2]!.record.favourite).toBe(true);
    expect(merged.added).toBe(1);
    // Once everything is loaded, an older item has its place too.
    expect(upsertItems(loaded, [deep], EMPTY_FILTER, true).items.at(-1)!.record.localId).toBe('z');
    // Items that do not match the filter are not inserted.
    const favouritesOnly = { ...EMPTY_FILTER, favourite: true };
    expect(upsertItems(loaded, [fresh], favouritesOnly, false).added).toBe(0);
  });
});
