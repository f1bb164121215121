/**
 * The task history as the list shows it: pages loaded with the cursor as the user scrolls,
 * `total` for the scrollbar, live updates merged in place, and the row actions. The first page
 * is small (a screenful and some) and its count is a second request, so the rows are drawn
 * without waiting for either the rest of the page or the count.
 */
import type { ServiceId } from '../../shared/domain/service-id';
import type { StateCreator } from 'zustand';
import type { TaskItem } from '../../shared/ipc/contract';
import { toggledIds } from '../lib/selection';
import type { AppState } from './app-state';
import { createPagedList, type PagedFields } from './paged-list';
import { idsInBatchOrder } from './task-ids';
import { createTaskSelectionSlice, type TaskSelectionSlice } from './task-selection';
import { createTaskTrashSlice, type TaskTrashSlice } from './task-trash-slice';
import { taskFilterActions, taskMergeActions, taskPageActions } from './task-list-actions';
import type { ResendMode } from './task-resend';
import { taskRowActions } from './task-row-actions';
import { EMPTY_FILTER, type StatusGroup, type TaskFilter } from './task-list-model';

/**
 * The loaded tasks' ids (newest first) as a paged list (`tasksIds`, `tasksNextCursor`,
 * `tasksStatus`, …) over the records table (records-slice.ts); the list shows `tasksTotal` rows
 * and loads the rest on demand.
 */
export interface TasksSlice
  extends PagedFields<'tasks', string, 'Ids'>, TaskSelectionSlice, TaskTrashSlice {
  /** The count when `tasksCounted`; until then the loaded rows plus one while more exist. */
  tasksTotal: number;
  /** The current filter's count has arrived. */
  tasksCounted: boolean;
  tasksFilter: TaskFilter;
  /**
   * The task whose details are open, by local id; its record is in the records table, also when
   * it was opened from elsewhere (the Costs screen) and is in no page of the list loaded so far.
   */
  tasksDetailsId: string | null;
  /** The task image shown in the image viewer over the Tasks screen, or null. */
  tasksViewer: TaskImageRef | null;
  /**
   * The batches whose "+N" the user opened, by batch id: the store's, so a new language (the
   * window drawn anew, app.tsx) shows the cards as they were.
   */
  tasksOpenBatches: ReadonlySet<string>;
  /** Opens or closes a batch's "+N" (toggles it without `open`). */
  tasksSetBatchOpen(batchId: string, open?: boolean): void;
  tasksSetSearch(search: string): void;
  tasksToggleGroup(group: StatusGroup): void;
  tasksSetFavouriteOnly(favourite: boolean): void;
  /** Shows only the tasks of one service ('' for all). */
  tasksSetProvider(provider: ServiceId | ''): void;
  tasksClearFilters(): void;
  /** Loads the first page of the current filter (drops what was loaded). */
  tasksReload(): Promise<void>;
  /** Loads pages until row `index` is loaded (or the history ends); not after a failure. */
  tasksLoadUntil(index: number): Promise<void>;
  /** Forgets a failed page load, so scrolling loads again. */
  tasksDismissError(): void;
  /**
   * Writes items into the records table and puts the new ones in the list (a submit's answer, a
   * tracked task); into a filtered list only those it holds already (main says the rest).
   */
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
  /**
   * Picks or unpicks tasks (a row's flag, the selection bar), the one pick path (task-pick.ts):
   * images through triage with the window's Undo, a task with no image by its own star.
   */
  tasksPick(localIds: readonly string[], pick: boolean): Promise<boolean>;
  /**
   * A task's "Submit again" and "Rerun" (`each`), a batch's Rerun (`batch`): new tasks of the
   * stored requests, never the old ones sent again (task-resend.ts); a refusal becomes an error in
   * the status area.
   */
  tasksResend(localIds: readonly string[], as: ResendMode): Promise<boolean>;
  /** Adds a task id created elsewhere; throws ApiError (the form shows it inline). */
  tasksTrack(taskId: string, prompt?: string): Promise<TaskItem>;
}

/** One image of one task, by the task's local id and the image's index. */
export interface TaskImageRef {
  readonly localId: string;
  readonly index: number;
}

type SetTasks = Parameters<StateCreator<AppState, [], [], TasksSlice>>[0];

/** The details dialog and the image viewer over the Tasks screen: what they show. */
function detailsActions(
  set: SetTasks,
  get: () => AppState,
): Pick<
  TasksSlice,
  'tasksOpenDetails' | 'tasksShowDetails' | 'tasksOpenViewer' | 'tasksCloseViewer'
> {
  return {
    tasksOpenDetails(localId) {
      set({ tasksDetailsId: localId });
    },
    tasksShowDetails(item) {
      get().recordsPut([item]);
      set({ tasksDetailsId: item.record.localId });
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
  const list = createPagedList<'tasks', AppState, string, 'Ids'>({
    prefix: 'tasks',
    itemsName: 'Ids',
    set,
    get,
    keyOf: (localId) => localId,
    arrange: (ids, page) => idsInBatchOrder(ids, get().records, page),
  });
  return {
    ...list.initial,
    ...createTaskSelectionSlice(set, get, api),
    ...createTaskTrashSlice(set, get, api),
    tasksTotal: 0,
    tasksCounted: false,
    tasksFilter: EMPTY_FILTER,
    tasksDetailsId: null,
    tasksViewer: null,
    tasksOpenBatches: new Set(),
    tasksSetBatchOpen(batchId, want) {
      const known = get().tasksOpenBatches;
      const open = want ?? !known.has(batchId);
      if (open !== known.has(batchId))
        set({ tasksOpenBatches: toggledIds(known, [batchId], open) });
    },

    ...taskFilterActions(set, get),
    ...taskPageActions(set, get, list),
    ...taskMergeActions(set),
    ...detailsActions(set, get),
    ...taskRowActions(get, api),
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends TasksSlice {}
}
