/**
 * The task history's multi-selection (renderer/lib/selection.ts over local ids) and the actions
 * on it: remove, favourite, export to a folder, retry, submit again. "Select all" is the whole
 * filtered history, loaded or not: an action asks main for its ids (`tasks:selectAll`, found from
 * the filter). Each action is one request per chunk of at most MAX_IDS_PER_BATCH ids; main runs
 * the single-task action for every id and skips what does not apply. The outcome is confirmed in
 * the status area, a failure shown as an error. The actions on the selected tasks are
 * task-selected-actions.ts; which ids the selection holds, task-selection-ids.ts.
 */
import type { StateCreator } from 'zustand';
import type { TaskRecord } from '../../shared/domain/task-record';
import {
  clickSelection,
  emptySelection,
  hasSelection,
  isSelected,
  keySelection,
  retainSelection,
  selectAll,
  selectionCommand,
  type ClickModifiers,
  type Selection,
  type SelectionKey,
} from '../lib/selection';
import type { AppState } from './app-state';
import { itemsOf } from './records-table';
import { taskSelectedActions, type TaskSelectedActions } from './task-selected-actions';
import { loadedOrder } from './task-selection-ids';

export interface TaskSelectionSlice extends TaskSelectedActions {
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
}

/** The selected tasks that are loaded (records), in the list's order. */
export function selectedRecords(
  state: Pick<AppState, 'tasksIds' | 'records' | 'tasksSelection'>,
): TaskRecord[] {
  return itemsOf(state.records, state.tasksIds)
    .filter((item) => isSelected(state.tasksSelection, item.record.localId))
    .map((item) => item.record);
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

type Creator = StateCreator<AppState, [], [], TaskSelectionSlice>;

/** What clicks, keys and checkboxes do to the selection. */
function selectActions(
  set: Parameters<Creator>[0],
  get: Parameters<Creator>[1],
): Omit<TaskSelectionSlice, 'tasksSelection' | keyof TaskSelectedActions> {
  return {
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
  };
}

export const createTaskSelectionSlice: Creator = (set, get, api) => ({
  tasksSelection: emptySelection<string>(),
  ...selectActions(set, get),
  ...taskSelectedActions(get, api),
});
