/**
 * Removing tasks with Undo, like the gallery's deletes: main holds a removed task's record for a
 * while (core/trash); the last removal is remembered here so Undo (the confirmation's button,
 * Ctrl/Cmd+Z over the list or with the focus nowhere) can ask for it back. After a removal the
 * list gives the focus to the task now where the first removed one was, after an Undo to the
 * first task that came back, so the keyboard never ends up on the page.
 */
import type { StateCreator } from 'zustand';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import { errorText, t } from '../i18n';
import { call, failure, toApiError } from '../lib/api';
import type { AppState } from './app-state';

/** A task the list is asked to give the focus to; a new `seq` asks again. */
export interface TaskFocusRequest {
  /** The task, when it is loaded; else the task at `index` of the list (or the last one). */
  readonly localId?: string;
  readonly index: number;
  readonly seq: number;
}

export interface TaskTrashSlice {
  /** The tasks of the last removal that Undo can still ask back, or null. */
  tasksUndoable: string[] | null;
  /** Where the list should put the focus after a removal or an Undo, or null. */
  tasksFocusRequest: TaskFocusRequest | null;
  /**
   * Says the removal in a confirmation with Undo, remembers it for Ctrl/Cmd+Z, and asks the list
   * to focus the task now at `at`, where the first removed one was (-1: nowhere to ask for).
   */
  tasksOfferUndo(removed: readonly string[], at: number): void;
  /** Takes tasks main removed off the list, then {@link tasksOfferUndo}. */
  tasksRemoved(removed: readonly string[], at: number): void;
  /**
   * Puts back the tasks of one removal (a confirmation's own), by default the last one; false
   * when there was nothing to undo or none came back (the reason shown).
   */
  tasksUndoRemove(localIds?: readonly string[]): Promise<boolean>;
}

function chunks(ids: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let at = 0; at < ids.length; at += MAX_IDS_PER_BATCH)
    out.push(ids.slice(at, at + MAX_IDS_PER_BATCH));
  return out;
}

/**
 * Where the first of the tasks `isIn` names is in the loaded list (-1: none is loaded): read
 * before they are removed (main's own news of a removal may take them off first).
 */
export function firstLoadedIndex(
  state: Pick<AppState, 'tasksItems'>,
  isIn: (localId: string) => boolean,
): number {
  return state.tasksItems.findIndex((item) => isIn(item.record.localId));
}

let focusSeq = 0;

/** A new focus request (each one asks again, even for the same place). */
function focusRequest(index: number, localId?: string): { tasksFocusRequest: TaskFocusRequest } {
  focusSeq += 1;
  return { tasksFocusRequest: { index, seq: focusSeq, ...(localId ? { localId } : {}) } };
}

export const createTaskTrashSlice: StateCreator<AppState, [], [], TaskTrashSlice> = (set, get) => ({
  tasksUndoable: null,
  tasksFocusRequest: null,

  tasksOfferUndo(removed, at) {
    if (removed.length === 0) return;
    const held = [...removed];
    set({ tasksUndoable: held, ...(at >= 0 ? focusRequest(at) : {}) });
    get().confirm(() => t('tasks.selection.removed', { count: held.length }), {
      label: () => t('gallery.undo'),
      run: () => void get().tasksUndoRemove(held),
    });
  },

  tasksRemoved(removed, at) {
    for (const localId of removed) get().tasksApplyRemoved(localId);
    get().tasksOfferUndo(removed, at);
  },

  async tasksUndoRemove(asked) {
    const last = get().tasksUndoable;
    const ids = asked ?? last;
    if (!ids || ids.length === 0) return false;
    if (last !== null && (asked === undefined || asked === last)) set({ tasksUndoable: null });
    let back = 0;
    let failed = 0;
    // Worded when shown, so it follows a change of language while on screen.
    let problem: (() => string) | undefined;
    try {
      for (const chunk of chunks(ids)) {
        const outcome = await call('tasks:undoRemove', { localIds: chunk });
        get().tasksInsert(outcome.items);
        const first = outcome.items[0]?.record.localId;
        if (back === 0 && first !== undefined) set(focusRequest(0, first));
        back += outcome.items.length;
        failed += outcome.failed;
        const { problem: message, problemSentence: sentence } = outcome;
        if (message !== undefined) problem ??= () => errorText({ message, sentence });
      }
    } catch (error) {
      get().showError(toApiError(error));
      return false;
    }
    if (failed > 0 && back === 0) {
      // Main's own sentence when it gave one, not a generic one with it hidden in the details.
      get().showError(failure(problem ?? (() => t('gallery.actionFailed'))));
      return false;
    }
    get().confirm(() =>
      failed === 0
        ? t('tasks.announce.restored', { count: back })
        : t('gallery.announce.partly', {
            done: back,
            count: back + failed,
            problem: problem?.() ?? '',
          }),
    );
    return true;
  },
});
