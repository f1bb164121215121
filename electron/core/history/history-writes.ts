/**
 * The history as an import and a rebuild use it: reads on the caller's own store, and their
 * writes of many records (`putManyCounted`, a batch at a time) in the history worker
 * (history-port.ts), so main's event loop does not wait on SQLite while a batch is written. Main
 * learns of the tasks written as it learns of another process's writes (change-feed.ts).
 *
 * The triage commit over many images and its Undo run there too (`triageInWorker`), and the
 * trash's writes of one task (`userWritesInWorker`: a removal and its Undo, an image's files
 * moved aside or back): main is told the change log's entries they made, so its feed does not
 * report them back, and announces the tasks itself (core/triage, core/engine).
 */
import type { ImageFilesPatch } from '../../../shared/domain/image-files-patch';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { HistoryPort } from './history-port';
import type { HistoryStore } from './history-store';
import type { HistoryOps, Logged, TriageWritten } from './history-worker-protocol';
import type { TriageDropped } from './triage-limits';

/** Writes of many records at once, on this thread's store or in the worker. */
export interface ManyRecordWrites {
  putManyCounted(records: readonly TaskRecord[]): TriageDropped | Promise<TriageDropped>;
}

/** What an import, a rebuild and an export use of the history (see above). */
export type WritingHistory = Pick<HistoryStore, 'get' | 'getByTaskId' | 'list' | 'count'> &
  ManyRecordWrites;

/** `history`'s reads, its writes of many records run by `worker` on the same file. */
export function writingInWorker(history: HistoryStore, worker: HistoryPort): WritingHistory {
  return {
    get: (localId) => history.get(localId),
    getByTaskId: (endpoint, taskId) => history.getByTaskId(endpoint, taskId),
    list: (query) => history.list(query),
    count: (query) => history.count(query),
    putManyCounted: (records) => worker.call('putManyCounted', { records }),
  };
}

/** A triage write over many images and its Undo (history-worker-ops.ts), off main's thread. */
export interface TriageWrites {
  triage(args: HistoryOps['triage']['args']): Promise<TriageWritten>;
  restoreTriage(args: HistoryOps['restoreTriage']['args']): Promise<TriageWritten>;
}

/** Triage written by `worker`; `history` (main's store) told the log entries are its own. */
export function triageInWorker(history: HistoryStore, worker: HistoryPort): TriageWrites {
  const noted = (written: TriageWritten): TriageWritten => {
    history.ownElsewhere(written.logged);
    return written;
  };
  return {
    triage: async (args) => noted(await worker.call('triage', args)),
    restoreTriage: async (args) => noted(await worker.call('restoreTriage', args)),
  };
}

/** The trash's writes of one task, off main's thread (core/engine's EngineUserWrites). */
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
}

/** The trash's writes run by `worker`; `history` (main's store) told the log entries are its own. */
export function userWritesInWorker(history: HistoryStore, worker: HistoryPort): UserWrites {
  const noted = <T extends { logged: Logged }>(written: T): T => {
    history.ownElsewhere(written.logged);
    return written;
  };
  return {
    remove: async (localId, watch) =>
      noted(await worker.call('removeTask', watch ? { localId, watch } : { localId })).removed,
    reinstate: async (record, watched) => {
      noted(await worker.call('reinstateTask', { record, watched }));
    },
    imageFiles: async ({ localId, index }, patch, at) =>
      noted(await worker.call('imageFiles', { localId, index, patch, at })).record,
  };
}
