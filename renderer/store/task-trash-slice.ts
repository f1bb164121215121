/**
 * Removing tasks with Undo, like the gallery's deletes: main holds a removed task's record for a
 * while (core/trash); the last removal is remembered here so Undo (the confirmation's button,
 * Ctrl/Cmd+Z over the list) can ask for it back.
 */
import type { StateCreator } from 'zustand';
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import { errorText, t } from '../i18n';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';

export interface TaskTrashSlice {
  /** The tasks of the last removal that Undo can still ask back, or null. */
  tasksUndoable: string[] | null;
  /** Says the removal in a confirmation with Undo, and remembers it for Ctrl/Cmd+Z. */
  tasksOfferUndo(removed: readonly string[]): void;
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

export const createTaskTrashSlice: StateCreator<AppState, [], [], TaskTrashSlice> = (set, get) => ({
  tasksUndoable: null,

  tasksOfferUndo(removed) {
    if (removed.length === 0) return;
    const held = [...removed];
    set({ tasksUndoable: held });
    get().confirm(() => t('tasks.selection.removed', { count: held.length }), {
      label: () => t('gallery.undo'),
      run: () => void get().tasksUndoRemove(held),
    });
  },

  async tasksUndoRemove(asked) {
    const last = get().tasksUndoable;
    const ids = asked ?? last;
    if (!ids || ids.length === 0) return false;
    if (last !== null && (asked === undefined || asked === last)) set({ tasksUndoable: null });
    let back = 0;
    let failed = 0;
    let problem: string | undefined;
    try {
      for (const chunk of chunks(ids)) {
        const outcome = await call('tasks:undoRemove', { localIds: chunk });
        get().tasksInsert(outcome.items);
        back += outcome.items.length;
        failed += outcome.failed;
        if (outcome.problem !== undefined)
          problem ??= errorText({ message: outcome.problem, sentence: outcome.problemSentence });
      }
    } catch (error) {
      get().showError(toApiError(error));
      return false;
    }
    if (failed > 0 && back === 0) {
      get().showError(toApiError(new Error(problem ?? t('gallery.actionFailed'))));
      return false;
    }
    get().confirm(() =>
      failed === 0
        ? t('tasks.announce.restored', { count: back })
        : t('gallery.announce.partly', {
            done: back,
            count: back + failed,
            problem: problem ?? '',
          }),
    );
    return true;
  },
});
