/**
 * The trash's writes of one task (a removal and its Undo, an image's files moved aside or back),
 * run off main's thread: the history worker implements it (core/history `userWritesInWorker`),
 * the engine calls it (core/engine; absent, the engine writes them on its own history). One port
 * both sides import, so the two cannot drift apart.
 */
import type { ImageFilesPatch } from '../../shared/domain/image-files-patch';
import type { TaskRecord } from '../../shared/domain/task-record';

export interface UserWrites {
  /** Removes the task; `watch` (its record): detached, watched for the ledger. */
  remove(localId: string, watch?: TaskRecord): Promise<boolean>;
  /** Puts the task back; `watched`: attached again. */
  reinstate(record: TaskRecord, watched: boolean): Promise<void>;
  /** The image's files and state patched, stamped `at`; null when nothing was written. */
  imageFiles(
    ref: { localId: string; index: number },
    patch: ImageFilesPatch,
    at: number,
  ): Promise<TaskRecord | null>;
  /**
   * Each named task's stored record, in the order named (null: not in the history), read where
   * main's thread does not wait on SQLite nor check the record (a triage change's sidecars);
   * absent: the engine reads its own history.
   */
  records?(localIds: readonly string[]): Promise<readonly (TaskRecord | null)[]>;
}
