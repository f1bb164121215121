/** Waiting, on the engine's own announcements, until a set of tasks needs nothing more. */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Disposable } from '../../ports/disposable';

export interface SettledView {
  get(localId: string): TaskRecord | undefined;
  /** Whether this run has nothing more to do for the task (nor waits for another process). */
  isSettled(record: TaskRecord): boolean;
  subscribe(listener: () => void): Disposable;
}

/** Resolves with the records once every given task is settled; a removed task counts as settled. */
export function whenSettled(view: SettledView, localIds: readonly string[]): Promise<TaskRecord[]> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      // A task another process removed from the history needs nothing more.
      const records = localIds
        .map((id) => view.get(id))
        .filter((record): record is TaskRecord => record !== undefined);
      if (!records.every((record) => view.isSettled(record))) return false;
      resolve(records);
      return true;
    };
    if (check()) return;
    const subscription = view.subscribe(() => {
      if (check()) subscription.dispose();
    });
  });
}
