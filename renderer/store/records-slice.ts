/**
 * The store's one records table (records-table.ts): each task the page shows, once, by local id.
 * The views hold ids (`tasksIds`, `compareIds`, `tasksDetailsId`, …) and read the records
 * through the selectors of record-selectors.ts; a task's record is written here, never into a
 * view. `tasks:updated` writes each changed record once (task-changes.ts).
 */
import type { StateCreator } from 'zustand';
import type { TaskItem } from '../../shared/ipc/contract';
import type { AppState } from './app-state';
import { EMPTY_RECORDS, recordsWith, type RecordsTable } from './records-table';

export interface RecordsSlice {
  /** Each task some view shows, by local id. */
  records: RecordsTable;
  /** Writes records read on their own (a submit's answer, a task opened from the Costs screen). */
  recordsPut(items: readonly TaskItem[]): void;
}

export const createRecordsSlice: StateCreator<AppState, [], [], RecordsSlice> = (set) => ({
  records: EMPTY_RECORDS,
  recordsPut(items) {
    set((state) => {
      const records = recordsWith(state.records, items);
      return records === state.records ? {} : { records };
    });
  },
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends RecordsSlice {}
}
