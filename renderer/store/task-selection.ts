/**
 * The task history's multi-selection (renderer/lib/selection.ts over local ids) and the actions
 * on it: remove, favourite, export to a folder, retry, submit again. "Select all" is the whole
 * filtered history, loaded or not: an action asks main for its ids (`tasks:selectAll`, found from
 * the filter). Each action is one request per chunk of at most MAX_IDS_PER_BATCH ids; main runs
 * the single-task action for every id and skips what does not apply. The outcome is confirmed in
 * the status area, a failure shown as an error.
 */
import type { StateCreator, StoreApi } from 'zustand';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { TaskItem } from '../../shared/ipc/contract';
import { t } from '../i18n';
import { call, toApiError } from '../lib/api';
import {
  clickSelection,
  emptySelection,
  hasSelection,
  isSelected,
  keySelection,
  retainSelection,
  selectAll,
  selectedInOrder,
  selectionCommand,
  type ClickModifiers,
  type Selection,
  type SelectionKey,
} from '../lib/selection';
import type { AppState } from './app-state';
import { withProgress, type Words } from './status-slice';
import { listQuery } from './task-list-model';
import { removeTasks } from './task-remove';

export interface TaskSelectionSlice {
  /** The selected tasks, by local id. */
  tasksSelection: Selection<string>;
  /** A click on a task: plain, Ctrl/Cmd (toggle) or Shift (range), in the list's order. */
  tasksSelectClick(localId: string, modifiers: ClickModifiers): void;
  /** Puts the tasks in or out of the selection (a batch's own checkbox). */
  tasksSelectMany(localIds: readonly string[], selected: boolean): void;
  /** Ctrl/Cmd+A (the whole filtered history) or Escape (none); answers whether the key meant that. */
  tasksSelectKey(event: SelectionKey): boolean;
  /** "Select all": every task the filter matches, loaded or not. */
  tasksSelectAll(): void;
  tasksClearSelection(): void;
  /** Drops ids that left the list. */
  tasksPruneSelection(keep: (localId: string) => boolean): void;
  tasksRemoveSelected(): Promise<boolean>;
  tasksFavouriteSelected(favourite: boolean): Promise<boolean>;
  tasksRetrySelected(): Promise<boolean>;
  tasksSubmitAgainSelected(): Promise<boolean>;
  tasksExportSelected(): Promise<boolean>;
}

/** The loaded tasks' ids in the list's order. */
function loadedOrder(state: Pick<AppState, 'tasksItems'>): string[] {
  return state.tasksItems.map((item) => item.record.localId);
}

/** The selected ids, in the list's order. */
function selectedIds(state: Pick<AppState, 'tasksItems' | 'tasksSelection'>): string[] {
  return selectedInOrder(state.tasksSelection, loadedOrder(state));
}

/** The selected tasks that are loaded (records), in the list's order. */
export function selectedRecords(
  state: Pick<AppState, 'tasksItems' | 'tasksSelection'>,
): TaskRecord[] {
  return state.tasksItems
    .filter((item) => isSelected(state.tasksSelection, item.record.localId))
    .map((item) => item.record);
}

/**
 * The selected ids, loaded or not: a whole-set selection asks main for the filter's tasks (the
 * page never holds a list main would take on trust) and leaves out those taken out of it.
 */
export async function chosenIds(
  state: Pick<AppState, 'tasksItems' | 'tasksSelection' | 'tasksFilter'>,
): Promise<string[]> {
  const { whole } = state.tasksSelection;
  if (!whole) return selectedIds(state);
  const { localIds } = await call('tasks:selectAll', listQuery(state.tasksFilter));
  return localIds.filter((localId) => !whole.except.has(localId));
}

function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let at = 0; at < ids.length; at += MAX_IDS_PER_BATCH) {
    out.push(ids.slice(at, at + MAX_IDS_PER_BATCH));
  }
  return out;
}

interface ItemsOutcome {
  readonly items: TaskItem[];
  readonly skipped: number;
}

/** The selection with `localIds` put in (`selected`) or taken out, whole or not. */
function withMany(
  selection: Selection<string>,
  localIds: readonly string[],
  selected: boolean,
): Selection<string> {
  const { whole } = selection;
  const put = (into: Set<string>, out: boolean) => {
    for (const localId of localIds) {
      if (out) into.delete(localId);
      else into.add(localId);
    }
    return into;
  };
  // A whole-set selection keeps what is taken out of it.
  if (whole) return { ...selection, whole: { except: put(new Set(whole.except), selected) } };
  const ids = put(new Set(selection.ids), !selected);
  return { ids, anchor: localIds[0] ?? selection.anchor };
}

/**
 * Removes the selected tasks as one job with Undo from its start (task-remove.ts), a chunk per
 * request; the selection goes at once (its bar with it), the focus to the task that stays next.
 */
async function removeSelected(
  store: Pick<StoreApi<AppState>, 'getState' | 'setState' | 'subscribe'>,
): Promise<boolean> {
  let ids: string[];
  try {
    ids = await chosenIds(store.getState());
  } catch (error) {
    store.getState().showError(toApiError(error));
    return false;
  }
  if (ids.length === 0) return false;
  store.getState().tasksClearSelection();
  return removeTasks(store, ids, (localIds) => call('tasks:removeMany', { localIds }));
}

/**
 * Runs `work` for each chunk of the selection, its progress said as `progress` when given; a
 * failure is shown and answers false.
 */
async function runChunks(
  get: () => AppState,
  work: (ids: string[]) => Promise<void>,
  progress?: Words,
): Promise<boolean> {
  try {
    const ids = await chosenIds(get());
    if (ids.length === 0) return false;
    const all = async (step: (done: number) => void) => {
      let done = 0;
      for (const chunk of chunks(ids)) {
        await work(chunk);
        done += chunk.length;
        step(done);
      }
    };
    await (progress === undefined
      ? all(() => undefined)
      : withProgress(get(), progress, ids.length, all));
    return true;
  } catch (error) {
    get().showError(toApiError(error));
    return false;
  }
}

export const createTaskSelectionSlice: StateCreator<AppState, [], [], TaskSelectionSlice> = (
  set,
  get,
  api,
) => {
  /** A chunked action whose answer is items: each applied, the counts added up and confirmed. */
  const runItems = async (
    request: (ids: string[]) => Promise<ItemsOutcome>,
    apply: (items: TaskItem[]) => void,
    message: (done: number, skipped: number) => string,
    progress?: Words,
  ): Promise<boolean> => {
    let done = 0;
    let skipped = 0;
    const ok = await runChunks(
      get,
      async (ids) => {
        const outcome = await request(ids);
        apply(outcome.items);
        done += outcome.items.length;
        skipped += outcome.skipped;
      },
      progress,
    );
    if (ok) get().confirm(() => message(done, skipped));
    return ok;
  };

  return {
    tasksSelection: emptySelection<string>(),
    tasksSelectClick(localId, modifiers) {
      set((state) => ({
        tasksSelection: clickSelection(
          state.tasksSelection,
          loadedOrder(state),
          localId,
          modifiers,
        ),
      }));
    },
    tasksSelectMany(localIds, selected) {
      set((state) => ({ tasksSelection: withMany(state.tasksSelection, localIds, selected) }));
    },
    tasksSelectKey(event) {
      const command = selectionCommand(event);
      if (command === null) return false;
      if (command === 'clear' && !hasSelection(get().tasksSelection)) return false;
      set((state) => ({
        tasksSelection: keySelection(state.tasksSelection, loadedOrder(state), event),
      }));
      return true;
    },
    tasksSelectAll() {
      set((state) => ({ tasksSelection: selectAll(state.tasksSelection, loadedOrder(state)) }));
    },
    tasksClearSelection() {
      if (hasSelection(get().tasksSelection)) set({ tasksSelection: emptySelection<string>() });
    },
    tasksPruneSelection(keep) {
      const next = retainSelection(get().tasksSelection, keep);
      if (next !== get().tasksSelection) set({ tasksSelection: next });
    },

    tasksRemoveSelected: () => removeSelected(api),
    tasksFavouriteSelected: (favourite) =>
      runItems(
        (localIds) => call('tasks:setFavouriteMany', { localIds, favourite }),
        (items) => items.forEach((item) => get().tasksApplyUpdate(item)),
        (done) =>
          t(favourite ? 'tasks.selection.favourited' : 'tasks.selection.unfavourited', {
            count: done,
          }),
        () => t('status.favouriting', { favourite: favourite ? 'yes' : 'no' }),
      ),
    tasksRetrySelected: () =>
      runItems(
        (localIds) => call('tasks:retryMany', { localIds }),
        (items) => items.forEach((item) => get().tasksApplyUpdate(item)),
        (done, skipped) => t('tasks.selection.retried', { count: done, skipped }),
        () => t('status.retrying'),
      ),
    tasksSubmitAgainSelected: () =>
      runItems(
        (localIds) => call('tasks:submitAgainMany', { localIds }),
        (items) => get().tasksInsert(items),
        (done, skipped) => t('tasks.selection.submitted', { count: done, skipped }),
        () => t('status.submittingAgain'),
      ),
    async tasksExportSelected() {
      try {
        // One folder dialog per export, for the whole selection (main takes MAX_SELECT_ALL).
        const localIds = await chosenIds(get());
        if (localIds.length === 0) return false;
        const outcome = await call('tasks:exportMany', { localIds });
        const { folder, copied, failed } = outcome;
        if (folder === null) return false;
        get().confirm(() => t('tasks.selection.exported', { count: copied, failed, folder }));
        return true;
      } catch (error) {
        get().showError(toApiError(error));
        return false;
      }
    },
  };
};
