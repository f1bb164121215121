/**
 * Reading the records table (records-slice.ts) from a view: one task by id (a row, a cell, the
 * details), or a view's id list as items. A list's selector answers the same array while its
 * ids and their records are the same, so a record written for another view draws nothing here.
 */
import type { TaskItem } from '../../shared/ipc/contract';
import type { AppState } from './app-state';
import { itemsOf, type RecordsTable } from './records-table';

/** One task's item by local id, or null when the page holds none. */
export function selectRecord(localId: string | null): (state: AppState) => TaskItem | null {
  return (state) => (localId === null ? null : (state.records.get(localId) ?? null));
}

interface Cached {
  readonly table: RecordsTable;
  readonly items: readonly TaskItem[];
}

/** A selector of the items of an id list, cached per list (and per table within it). */
function listSelector(
  idsOf: (state: AppState) => readonly string[],
): (state: AppState) => readonly TaskItem[] {
  const cache = new WeakMap<readonly string[], Cached>();
  return (state) => {
    const ids = idsOf(state);
    const cached = cache.get(ids);
    if (cached?.table === state.records) return cached.items;
    const items = itemsOf(state.records, ids, cached?.items);
    cache.set(ids, { table: state.records, items });
    return items;
  };
}

/** The task list's loaded tasks, newest first. */
export const selectTaskItems = listSelector((state) => state.tasksIds);

/** The compare view's tasks, by slot. */
export const selectCompareItems = listSelector((state) => state.compareIds);
