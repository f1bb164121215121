/**
 * The task list's actions: the filter, loading pages and the count, and merging what main sends.
 * Part of the tasks slice (tasks-slice.ts).
 */
import type { StateCreator } from 'zustand';
import { call } from '../lib/api';
import type { AppState } from './app-state';
import type { PagedList } from './paged-list';
import { recordsWith } from './records-table';
import { listAfterBatch, readBatch } from './task-batch';
import { idsWithNew, taskPage, type TaskPage } from './task-ids';
import { EMPTY_FILTER, isFiltered, listQuery, type TaskFilter } from './task-list-model';

/** Rows asked for beyond the last one needed, so scrolling rarely waits. */
const PAGE_AHEAD = 60;
/** The first page: a tall window's rows and the overscan, and little more. */
const FIRST_PAGE = 30;
const MIN_PAGE = 100;
const MAX_PAGE = 500;

/** Before the count: the loaded rows, and one placeholder row while there are more. */
function provisionalTotal(loaded: number, cursor: string | null): number {
  return loaded + (cursor === null ? 0 : 1);
}

type Creator = StateCreator<AppState>;

type Set = Parameters<Creator>[0];
type Get = Parameters<Creator>[1];

/** The filter: each change reloads the list and drops the selection. */
export function taskFilterActions(
  set: Set,
  get: Get,
): Pick<
  AppState,
  | 'tasksSetSearch'
  | 'tasksToggleGroup'
  | 'tasksSetFavouriteOnly'
  | 'tasksSetProvider'
  | 'tasksClearFilters'
> {
  const setFilter = (filter: TaskFilter): void => {
    set({ tasksFilter: filter });
    // Tasks the new filter hides are not acted on unseen.
    get().tasksClearSelection();
    void get().tasksReload();
  };

  return {
    tasksSetSearch(search) {
      if (search === get().tasksFilter.search) return;
      setFilter({ ...get().tasksFilter, search });
    },
    tasksToggleGroup(group) {
      const groups = get().tasksFilter.groups;
      const next = groups.includes(group) ? groups.filter((g) => g !== group) : [...groups, group];
      setFilter({ ...get().tasksFilter, groups: next });
    },
    tasksSetFavouriteOnly: (favourite) => setFilter({ ...get().tasksFilter, favourite }),
    tasksSetProvider: (provider) => setFilter({ ...get().tasksFilter, provider }),
    tasksClearFilters() {
      setFilter(EMPTY_FILTER);
    },
  };
}

/** Loading: the first page and its count, the pages after it as the list scrolls. */
export function taskPageActions(
  set: Set,
  get: Get,
  list: PagedList<'tasks', AppState, string, 'Ids'>,
): Pick<AppState, 'tasksReload' | 'tasksLoadUntil' | 'tasksDismissError'> {
  return {
    async tasksReload() {
      const filter = listQuery(get().tasksFilter);
      set({ tasksCounted: false });
      const stillCurrent = await list.replace(
        async () =>
          taskPage(await call('tasks:list', { ...filter, limit: FIRST_PAGE, cursor: null })),
        (next, state, page: TaskPage) => ({
          records: recordsWith(state.records, page.records),
          tasksTotal: provisionalTotal(next.items.length, next.nextCursor),
        }),
      );
      if (!stillCurrent) return;
      try {
        const { total } = await call('tasks:count', filter);
        if (!stillCurrent()) return;
        set((current) => ({
          // With every page loaded, the rows are the answer: the count also counts stored rows
          // the main process could not read and skipped, which would stay placeholders forever.
          tasksTotal:
            current.tasksNextCursor === null
              ? current.tasksIds.length
              : Math.max(total, current.tasksIds.length),
          tasksCounted: true,
        }));
      } catch {
        // The rows are there; without a count the list grows page by page as it scrolls.
      }
    },

    async tasksLoadUntil(index) {
      const state = get();
      // After a failure the user decides when to try again (no retry loop while scrolling).
      if (state.tasksError || index < state.tasksIds.length) return;
      const wanted = index - state.tasksIds.length + PAGE_AHEAD;
      await list.extend(
        async (cursor) =>
          taskPage(
            await call('tasks:list', {
              ...listQuery(state.tasksFilter),
              limit: Math.min(MAX_PAGE, Math.max(MIN_PAGE, wanted)),
              cursor,
            }),
          ),
        (next, current, page: TaskPage) => ({
          records: recordsWith(current.records, page.records),
          tasksTotal:
            next.nextCursor !== null && current.tasksCounted
              ? Math.max(current.tasksTotal, next.items.length)
              : provisionalTotal(next.items.length, next.nextCursor),
        }),
      );
    },

    tasksDismissError() {
      list.dismissError();
    },
  };
}

/** What main sends, merged in place: new tasks, changed ones, removed ones. */
export function taskMergeActions(
  set: Set,
): Pick<AppState, 'tasksInsert' | 'tasksApplyUpdate' | 'tasksApplyRemoved'> {
  return {
    tasksInsert(incoming) {
      set((state) => {
        const records = recordsWith(state.records, incoming);
        // Into a filtered list, new tasks come with main's word on it (`tasks:updated`).
        if (isFiltered(state.tasksFilter)) return { records };
        const merged = idsWithNew(
          state.tasksIds,
          incoming,
          records,
          state.tasksNextCursor === null,
        );
        return {
          records,
          tasksIds: merged.ids,
          tasksTotal: state.tasksTotal + merged.added,
        };
      });
    },
    tasksApplyUpdate(item) {
      set((state) => listAfterBatch(state, readBatch([{ change: 'task', ...item }])));
    },
    tasksApplyRemoved(localId) {
      set((state) => listAfterBatch(state, readBatch([{ change: 'removed', localId }])));
    },
  };
}
