/**
 * The task history's multi-selection (renderer/lib/selection.ts over local ids) and the actions
 * on it: remove, favourite, export to a folder, retry, submit again. Each action is one request
 * per chunk of at most MAX_IDS_PER_BATCH ids; main runs the single-task action for every id and
 * skips what does not apply. The outcome is confirmed in a toast, a failure shown as an error.
 */
import type { StateCreator } from 'zustand';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { TaskItem } from '../../shared/ipc/contract';
import { t } from '../i18n';
import { ApiError, call, toApiError } from '../lib/api';
import {
  clickSelection,
  emptySelection,
  keySelection,
  retainSelection,
  selectedInOrder,
  selectionCommand,
  type ClickModifiers,
  type Selection,
  type SelectionKey,
} from '../lib/selection';
import type { AppState } from './app-state';

export interface TaskSelectionSlice {
  /** The selected tasks, by local id. */
  tasksSelection: Selection<string>;
  /** A click on a task: plain, Ctrl/Cmd (toggle) or Shift (range), in the list's order. */
  tasksSelectClick(localId: string, modifiers: ClickModifiers): void;
  /** Puts the tasks in or out of the selection (a batch's own checkbox). */
  tasksSelectMany(localIds: readonly string[], selected: boolean): void;
  /** Ctrl/Cmd+A (every loaded task) or Escape (none); answers whether the key meant that. */
  tasksSelectKey(event: SelectionKey): boolean;
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
export function loadedOrder(state: Pick<AppState, 'tasksItems'>): string[] {
  return state.tasksItems.map((item) => item.record.localId);
}

/** The selected ids, in the list's order. */
export function selectedIds(state: Pick<AppState, 'tasksItems' | 'tasksSelection'>): string[] {
  return selectedInOrder(state.tasksSelection, loadedOrder(state));
}

/** The selected tasks that are loaded (records), in the list's order. */
export function selectedRecords(
  state: Pick<AppState, 'tasksItems' | 'tasksSelection'>,
): TaskRecord[] {
  return state.tasksItems
    .filter((item) => state.tasksSelection.ids.has(item.record.localId))
    .map((item) => item.record);
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

export const createTaskSelectionSlice: StateCreator<AppState, [], [], TaskSelectionSlice> = (
  set,
  get,
) => {
  /** Runs `work` for each chunk of the selection; a failure is shown and answers false. */
  const run = async (work: (ids: string[]) => Promise<void>): Promise<boolean> => {
    const ids = selectedIds(get());
    if (ids.length === 0) return false;
    try {
      for (const chunk of chunks(ids)) await work(chunk);
      return true;
    } catch (error) {
      get().showError(toApiError(error));
      return false;
    }
  };
  /** A chunked action whose answer is items: each applied, the counts added up and confirmed. */
  const runItems = async (
    request: (ids: string[]) => Promise<ItemsOutcome>,
    apply: (items: TaskItem[]) => void,
    message: (done: number, skipped: number) => string,
  ): Promise<boolean> => {
    let done = 0;
    let skipped = 0;
    const ok = await run(async (ids) => {
      const outcome = await request(ids);
      apply(outcome.items);
      done += outcome.items.length;
      skipped += outcome.skipped;
    });
    if (ok) get().confirm(message(done, skipped));
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
      set((state) => {
        const ids = new Set(state.tasksSelection.ids);
        for (const localId of localIds) {
          if (selected) ids.add(localId);
          else ids.delete(localId);
        }
        return { tasksSelection: { ids, anchor: localIds[0] ?? state.tasksSelection.anchor } };
      });
    },
    tasksSelectKey(event) {
      const command = selectionCommand(event);
      if (command === null) return false;
      if (command === 'clear' && get().tasksSelection.ids.size === 0) return false;
      set((state) => ({
        tasksSelection: keySelection(state.tasksSelection, loadedOrder(state), event),
      }));
      return true;
    },
    tasksClearSelection() {
      if (get().tasksSelection.ids.size > 0) set({ tasksSelection: emptySelection<string>() });
    },
    tasksPruneSelection(keep) {
      const next = retainSelection(get().tasksSelection, keep);
      if (next !== get().tasksSelection) set({ tasksSelection: next });
    },

    async tasksRemoveSelected() {
      const removed: string[] = [];
      const ok = await run(async (localIds) => {
        const outcome = await call('tasks:removeMany', { localIds });
        for (const localId of outcome.removed) get().tasksApplyRemoved(localId);
        removed.push(...outcome.removed);
      });
      if (ok) get().tasksClearSelection();
      // What was removed can come back, even when a later chunk failed.
      get().tasksOfferUndo(removed);
      return ok;
    },
    tasksFavouriteSelected: (favourite) =>
      runItems(
        (localIds) => call('tasks:setFavouriteMany', { localIds, favourite }),
        (items) => items.forEach((item) => get().tasksApplyUpdate(item)),
        (done) =>
          t(favourite ? 'tasks.selection.favourited' : 'tasks.selection.unfavourited', {
            count: done,
          }),
      ),
    tasksRetrySelected: () =>
      runItems(
        (localIds) => call('tasks:retryMany', { localIds }),
        (items) => items.forEach((item) => get().tasksApplyUpdate(item)),
        (done, skipped) => t('tasks.selection.retried', { count: done, skipped }),
      ),
    tasksSubmitAgainSelected: () =>
      runItems(
        (localIds) => call('tasks:submitAgainMany', { localIds }),
        (items) => get().tasksInsert(items),
        (done, skipped) => t('tasks.selection.submitted', { count: done, skipped }),
      ),
    async tasksExportSelected() {
      const localIds = selectedIds(get());
      if (localIds.length === 0) return false;
      try {
        // One folder dialog per export: a selection larger than one request is refused.
        if (localIds.length > MAX_IDS_PER_BATCH) {
          throw new ApiError(
            'bad_input',
            t('tasks.selection.exportTooMany', { max: MAX_IDS_PER_BATCH }),
          );
        }
        const outcome = await call('tasks:exportMany', { localIds });
        if (outcome.folder === null) return false;
        get().confirm(
          t('tasks.selection.exported', {
            count: outcome.copied,
            failed: outcome.failed,
            folder: outcome.folder,
          }),
        );
        return true;
      } catch (error) {
        get().showError(toApiError(error));
        return false;
      }
    },
  };
};
