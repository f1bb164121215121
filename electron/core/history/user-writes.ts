/**
 * The user's writes of one task the history worker runs for the trash (history-worker-ops.ts): a
 * task removed (or, its service still working on it, detached and watched for the ledger) and put
 * back, and an image's files moved aside or back (`ImageFilesPatch`, applied to the image as
 * stored). Each is one transaction of the store and says which change log entries it made, so
 * main's change feed does not report them back as another process's.
 */
import { type ImageFilesPatch, withPatchedImage } from '../../../shared/domain/image-files-patch';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { HistoryStore } from './history-store';
import type { Logged } from './history-worker-protocol';

/** `write` on `store`, with the log entries it made. */
function logged<T>(store: HistoryStore, write: () => T): T & { logged: Logged } {
  store.takeOwnChanges();
  const result = write();
  return { ...result, logged: store.takeOwnChanges() };
}

/** Removes the task; `watch` (its record): detached instead, watched for the ledger. */
export function removeTask(
  store: HistoryStore,
  { localId, watch }: { localId: string; watch?: TaskRecord },
): { removed: boolean; logged: Logged } {
  return logged(store, () => ({
    removed: watch === undefined ? store.delete(localId) : store.detach(watch),
  }));
}

/** Puts the task back; `watched`: it was detached, and is attached again. */
export function reinstateTask(
  store: HistoryStore,
  { record, watched }: { record: TaskRecord; watched: boolean },
): { logged: Logged } {
  return logged(store, () => {
    if (watched) store.attach(record);
    else store.put(record);
    return {};
  });
}

/**
 * The image of the task whose `index` is `index` with the patch's files and state, stamped `at`;
 * `record` null when the task or image is gone or already so. `hold` runs inside the transaction
 * (a test holds or ends the worker there).
 */
export function imageFiles(
  store: HistoryStore,
  args: { localId: string; index: number; patch: ImageFilesPatch; at: number },
  hold?: () => void,
): { record: TaskRecord | null; logged: Logged } {
  const { localId, index, patch, at } = args;
  return logged(store, () => {
    const [record] = store.editMany([localId], (stored) => {
      hold?.();
      const next = withPatchedImage(stored, index, patch);
      return next && { ...next, updatedAt: at };
    });
    return { record: record ?? null };
  });
}
