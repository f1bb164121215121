/**
 * Removing tasks with Undo, like the gallery's deletes: main holds a removed task's record for a
 * while (core/trash); the last removal is remembered here so Undo (its entry's button in the
 * status area, or the window's Ctrl/Cmd+Z: undo-slice.ts) can ask for it back, from the
 * removal's first moment (task-remove.ts). As a removal starts the list gives the focus to the
 * task that stays next to those going, after an Undo to the first task that came back, so the
 * keyboard never ends up on the page.
 */
import type { StateCreator } from 'zustand';
import type { AppState } from './app-state';
import { undoRemove, type TaskFocusRequest } from './task-remove';

export interface TaskTrashSlice {
  /** The tasks of the last removal that Undo can still ask back (from its first moment), or null. */
  tasksUndoable: readonly string[] | null;
  /** Where the list should put the focus after a removal or an Undo, or null. */
  tasksFocusRequest: TaskFocusRequest | null;
  /**
   * Puts back the tasks of one removal (its entry's own), by default the last one, even while it
   * runs; false when there was nothing to undo or none came back (the reason shown).
   */
  tasksUndoRemove(localIds?: readonly string[]): Promise<boolean>;
}

export const createTaskTrashSlice: StateCreator<AppState, [], [], TaskTrashSlice> = (
  _set,
  _get,
  store,
) => ({
  tasksUndoable: null,
  tasksFocusRequest: null,

  tasksUndoRemove: (asked) => undoRemove(store, asked),
});
