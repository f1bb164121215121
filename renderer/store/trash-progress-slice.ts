/**
 * How far main's delete or Undo is (`trash:progress`), and whether the app waits for it to quit
 * (`app:quitting`): shown where Undo is offered, so a long Undo is seen to run.
 */
import type { StateCreator } from 'zustand';
import type { EventPayload, TrashProgressPayload } from '../../shared/ipc/contract';
import type { AppState } from './app-state';

export interface TrashProgressSlice {
  /** The operation under way, while it is (null once it ended). */
  trashProgress: TrashProgressPayload | null;
  /** The app quits once the operation under way ends. */
  trashQuitting: boolean;
  trashApplyProgress(progress: TrashProgressPayload): void;
  trashApplyQuitting(payload: EventPayload<'app:quitting'>): void;
}

export const createTrashProgressSlice: StateCreator<AppState, [], [], TrashProgressSlice> = (
  set,
) => ({
  trashProgress: null,
  trashQuitting: false,
  trashApplyProgress(progress) {
    set({ trashProgress: progress.done >= progress.total ? null : progress });
  },
  trashApplyQuitting({ waitingFor }) {
    set({
      trashQuitting: waitingFor !== null,
      ...(waitingFor === null || waitingFor.done >= waitingFor.total
        ? {}
        : { trashProgress: waitingFor }),
    });
  },
});
