/**
 * The task history as the list shows it: pages loaded with the cursor as the user scrolls,
 * `total` for the scrollbar, live updates merged in place, and the row actions. The first page
 * is small (a screenful and some) and its count is a second request, so the rows are drawn
 * without waiting for either the rest of the page or the count.
 */
import type { ProviderId } from '../../shared/domain/providers';
import type { StateCreator } from 'zustand';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { TaskItem } from '../../shared/ipc/contract';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { createPagedList, type PagedFields } from './paged-list';
import { createTaskSelectionSlice, type TaskSelectionSlice } from './task-selection';
import { removeTasks } from './task-remove';
import { createTaskTrashSlice, type TaskTrashSlice } from './task-trash-slice';
import { readBatch, tasksAfterBatch } from './task-batch';
import {
  EMPTY_FILTER,
  listQuery,
  upsertItems,
  type StatusGroup,
  type TaskFilter,
} from './task-list-model';

/** Rows asked for beyond the last one needed, so scrolling rarely waits. */
const PAGE_AHEAD = 60;
/** The first page: a tall window's rows and the overscan, and little more. */
const FIRST_PAGE = 30;
const MIN_PAGE = 100;
const MAX_PAGE = 500;

/**
 * The loaded items (newest first) as a paged list (`tasksItems`, `tasksNextCursor`,
 * `tasksStatus`, …); the list shows `tasksTotal` rows and loads the rest on demand.
 */
export interface TasksSlice
  extends PagedFields<'tasks', TaskItem>, TaskSelectionSlice, TaskTrashSlice {
  /** The count when `tasksCounted`; until then the loaded rows plus one while more exist. */
  tasksTotal: number;
  /** The current filter's count has arrived. */
  tasksCounted: boolean;
  tasksFilter: TaskFilter;
  /** The task whose details are open, by local id. */
  tasksDetailsId: string | null;
  /**
   * The task whose details were opened from elsewhere (the Costs screen), kept with it: it may
   * be in no page of the list loaded so far.
   */
  tasksDetailsItem: TaskItem | null;
  /** The task image shown in the image viewer over the Tasks screen, or null. */
  tasksViewer: TaskImageRef | null;
  tasksSetSearch(search: string): void;
  tasksToggleGroup(group: StatusGroup): void;
  tasksSetFavouriteOnly(favourite: boolean): void;
  /** Shows only the tasks of one service ('' for all). */
  tasksSetProvider(provider: ProviderId | ''): void;
  tasksClearFilters(): void;
  /** Loads the first page of the current filter (drops what was loaded). */
  tasksReload(): Promise<void>;
  /** Loads pages until row `index` is loaded (or the history ends); not after a failure. */
  tasksLoadUntil(index: number): Promise<void>;
  /** Forgets a failed page load, so scrolling loads again. */
  tasksDismissError(): void;
  /** Inserts or refreshes items (a submit's answer, a tracked task, an event). */
  tasksInsert(items: readonly TaskItem[]): void;
  tasksApplyUpdate(item: TaskItem): void;
  tasksApplyRemoved(localId: string): void;
  tasksOpenDetails(localId: string | null): void;
  /** Opens the details of a task read on its own (`tasks:get`), loaded in the list or not. */
  tasksShowDetails(item: TaskItem): void;
  /** Opens (or moves) the image viewer over the Tasks screen to one of a task's images. */
  tasksOpenViewer(ref: TaskImageRef): void;
  tasksCloseViewer(): void;
  /** Row actions: they report failures in the status area and answer whether they worked. */
  tasksResume(localId: string): Promise<boolean>;
  tasksRetryImages(localId: string): Promise<boolean>;
  tasksRemove(localId: string): Promise<boolean>;
  tasksSetFavourite(localId: string, favourite: boolean): Promise<boolean>;
  /** An explicit new request with the same parameters (never a resend by the app). */
  tasksSubmitAgain(record: TaskRecord): Promise<boolean>;
  /**
   * "Rerun": the task's request again as one new task (a batch's: `count` of them, one new
   * batch), on the task's own service (main reads both from the record: `tasks:submitAgain`); a
   * refusal becomes an error in the status area.
   */
  tasksRerun(localId: string, count?: number): Promise<boolean>;
  /** Adds a task id created elsewhere; throws ApiError (the form shows it inline). */
  tasksTrack(taskId: string, prompt?: string): Promise<TaskItem>;
}

/** One image of one task, by the task's local id and the image's index. */
export interface TaskImageRef {
  readonly localId: string;
  readonly index: number;
}

/** What "Rerun" asks main for: the task, and how many new tasks when a batch asks for several. */
function againInput(localId: string, count: number): { localId: string; count?: number } {
  return count > 1 ? { localId, count } : { localId };
}

/** Before the count: the loaded rows, and one placeholder row while there are more. */
function provisionalTotal(loaded: number, cursor: string | null): number {
  return loaded + (cursor === null ? 0 : 1);
}

type SetTasks = Parameters<StateCreator<AppState, [], [], TasksSlice>>[0];

/** The details dialog and the image viewer over the Tasks screen: what they show. */
function detailsActions(
  set: SetTasks,
): Pick<
  TasksSlice,
  'tasksOpenDetails' | 'tasksShowDetails' | 'tasksOpenViewer' | 'tasksCloseViewer'
> {
  return {
    tasksOpenDetails(localId) {
      set({ tasksDetailsId: localId, tasksDetailsItem: null });
    },
    tasksShowDetails(item) {
      set({ tasksDetailsId: item.record.localId, tasksDetailsItem: item });
    },
    tasksOpenViewer(ref) {
      set({ tasksViewer: { localId: ref.localId, index: ref.index } });
    },
    tasksCloseViewer() {
      set({ tasksViewer: null });
    },
  };
}

export const createTasksSlice: StateCreator<AppState, [], [], TasksSlice> = (set, get, api) => {
  const list = createPagedList<'tasks', AppState, TaskItem>({
    prefix: 'tasks',
    set,
    get,
    keyOf: (item) => item.record.localId,
  });
  const setFilter = (filter: TaskFilter): void => {
    set({ tasksFilter: filter });
    // Tasks the new filter hides are not acted on unseen.
    get().tasksClearSelection();
    void get().tasksReload();
  };

  /** Runs a row action's request; applies the returned item or shows the error. */
  const act = async (work: () => Promise<TaskItem | null>): Promise<boolean> => {
    try {
      const item = await work();
      if (item) get().tasksApplyUpdate(item);
      return true;
    } catch (error) {
      get().showError(toApiError(error));
      return false;
    }
  };

  return {
    ...list.initial,
    ...createTaskSelectionSlice(set, get, api),
    ...createTaskTrashSlice(set, get, api),
    tasksTotal: 0,
    tasksCounted: false,
    tasksFilter: EMPTY_FILTER,
    tasksDetailsId: null,
    tasksDetailsItem: null,
    tasksViewer: null,

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

    async tasksReload() {
      const filter = listQuery(get().tasksFilter);
      set({ tasksCounted: false });
      const stillCurrent = await list.replace(
        () => call('tasks:list', { ...filter, limit: FIRST_PAGE, cursor: null }),
        (next) => ({ tasksTotal: provisionalTotal(next.items.length, next.nextCursor) }),
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
              ? current.tasksItems.length
              : Math.max(total, current.tasksItems.length),
          tasksCounted: true,
        }));
      } catch {
        // The rows are there; without a count the list grows page by page as it scrolls.
      }
    },

    async tasksLoadUntil(index) {
      const state = get();
      // After a failure the user decides when to try again (no retry loop while scrolling).
      if (state.tasksError || index < state.tasksItems.length) return;
      const wanted = index - state.tasksItems.length + PAGE_AHEAD;
      await list.extend(
        (cursor) =>
          call('tasks:list', {
            ...listQuery(state.tasksFilter),
            limit: Math.min(MAX_PAGE, Math.max(MIN_PAGE, wanted)),
            cursor,
          }),
        (next, current) => ({
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

    tasksInsert(incoming) {
      set((state) => {
        const merged = upsertItems(
          state.tasksItems,
          incoming,
          state.tasksFilter,
          state.tasksNextCursor === null,
        );
        return { tasksItems: merged.items, tasksTotal: state.tasksTotal + merged.added };
      });
    },
    tasksApplyUpdate(item) {
      set((state) => tasksAfterBatch(state, readBatch([{ change: 'task', ...item }])));
    },
    tasksApplyRemoved(localId) {
      set((state) => tasksAfterBatch(state, readBatch([{ change: 'removed', localId }])));
    },
    ...detailsActions(set),

    tasksResume: (localId) => act(() => call('tasks:resume', { localId })),
    tasksRetryImages: (localId) => act(() => call('tasks:retryImages', { localId })),
    tasksSetFavourite: (localId, favourite) =>
      act(() => call('tasks:setFavourite', { localId, favourite })),
    tasksRemove: (localId) =>
      removeTasks(api, [localId], async () => {
        const { removed } = await call('tasks:remove', { localId });
        return { removed: removed ? [localId] : [] };
      }),
    tasksSubmitAgain: (record) => get().tasksRerun(record.localId),
    tasksRerun: (localId, count = 1) =>
      act(async () => {
        get().tasksInsert(await call('tasks:submitAgain', againInput(localId, count)));
        return null;
      }),

    async tasksTrack(taskId, prompt) {
      const item = await call('tasks:track', {
        taskId: taskId.trim(),
        ...(prompt?.trim() ? { prompt: prompt.trim() } : {}),
      });
      get().tasksInsert([item]);
      return item;
    },
  };
};
