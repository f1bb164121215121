/** Waiting, on the engine's own announcements, until a set of tasks needs nothing more. */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Disposable } from '../../ports/disposable';

export interface SettledView {
  get(localId: string): TaskRecord | undefined;
  /** Whether this run has nothing more to do for the task (nor waits for another process). */
  isSettled(record: TaskRecord): boolean;
  subscribe(listener: () => void): Disposable;
  /**
   * Resolves once the tasks' files asked for so far (their sidecars) are on disk, or after a bound;
   * true when it waited for writes that ended. Absent: nothing to wait for.
   */
  written?(localIds: readonly string[]): Promise<boolean>;
}

/**
 * Resolves with the records once every given task is settled; a removed task counts as settled.
 *
 * Each announcement re-reads only the tasks still waited for, up to the first that is not
 * settled: a settled task has left the engine's memory, so reading it again is a history read,
 * and re-reading every task at every poll's announcement made a wait on N tasks cost
 * N reads per announcement on the main thread (200 tasks: most of its time). Once none is left,
 * one pass over them all confirms (a task may have been retried since it settled) before the
 * promise resolves; one that is busy again is waited for again. Then the writes of the tasks'
 * files asked for so far are waited for (bounded: see SettledView.written).
 */
export async function whenSettled(
  view: SettledView,
  localIds: readonly string[],
): Promise<TaskRecord[]> {
  let records = await settledRecords(view, localIds);
  // The change that settles a task asks for its last sidecar write in the same turn, after
  // announcing it (DownloadManager.apply): by now it is asked for. Settled means on disk too: a
  // caller that removes the task's folder at once (the bench, a user's script after the CLI) must
  // not have a write land in it. After a wait, the tasks are confirmed again (one may have been
  // retried meanwhile), and so are their writes.
  const ids = [...new Set(localIds)];
  while (view.written && (await view.written(ids))) records = await settledRecords(view, localIds);
  return records;
}

/** {@link whenSettled} without the wait for the tasks' files. */
function settledRecords(view: SettledView, localIds: readonly string[]): Promise<TaskRecord[]> {
  const ids = [...new Set(localIds)];
  const pending = new Set(ids);
  const done = (localId: string): boolean => {
    const record = view.get(localId);
    // A task another process removed from the history needs nothing more.
    return record === undefined || view.isSettled(record);
  };
  return new Promise((resolve) => {
    const check = (): boolean => {
      for (const localId of pending) {
        if (!done(localId)) return false;
        pending.delete(localId);
      }
      const records = new Map<string, TaskRecord>();
      for (const localId of ids) {
        const record = view.get(localId);
        if (record === undefined) continue;
        if (!view.isSettled(record)) pending.add(localId);
        else records.set(localId, record);
      }
      if (pending.size > 0) return false;
      // In the order asked (a task named twice, twice), removed ones left out.
      resolve(localIds.map((id) => records.get(id)).filter(isRecord));
      return true;
    };
    if (check()) return;
    const subscription = view.subscribe(() => {
      if (check()) subscription.dispose();
    });
  });
}

function isRecord(record: TaskRecord | undefined): record is TaskRecord {
  return record !== undefined;
}
