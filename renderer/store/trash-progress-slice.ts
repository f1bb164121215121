/**
 * How far main's delete or Undo is (`trash:progress`), and whether the app waits for it to quit
 * (`app:quitting`): shown where Undo is offered, so a long Undo is seen to run. And how far an
 * export of a selection is (`export:progress`), once its folder was chosen.
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
  /** The export under way, while it is (null once it ended). */
  exportProgress: EventPayload<'export:progress'> | null;
  exportApplyProgress(progress: EventPayload<'export:progress'>): void;
}

export const createTrashProgressSlice: StateCreator<AppState, [], [], TrashProgressSlice> = (
  set,
) => ({
  trashProgress: null,
  trashQuitting: false,
  exportProgress: null,
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
  exportApplyProgress(progress) {
    set({ exportProgress: progress.done >= progress.total ? null : progress });
  },
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends TrashProgressSlice {}
}
