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
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { UserWrites } from '../../ports/user-writes';
import type { HistoryPort } from './history-port';
import type { CarriedFields } from './carried-fields';
import type { HistoryStore } from './history-store';
import type { HistoryOps, Logged, TriageWritten } from './history-worker-protocol';
import type { TriageDropped } from './triage-limits';

/** Writes of many records at once, on this thread's store or in the worker. */
export interface ManyRecordWrites {
  putManyCounted(
    records: readonly TaskRecord[],
    carried?: CarriedFields,
  ): TriageDropped | Promise<TriageDropped>;
}

/** What an import, a rebuild and an export use of the history (see above). */
export type WritingHistory = Pick<
  HistoryStore,
  'get' | 'getMany' | 'getByTaskId' | 'list' | 'count' | 'newerTaskIds' | 'textWithNewerFields'
> &
  ManyRecordWrites;

/** `history`'s reads, its writes of many records run by `worker` on the same file. */
export function writingInWorker(history: HistoryStore, worker: HistoryPort): WritingHistory {
  return {
    get: (localId) => history.get(localId),
    getMany: (localIds) => history.getMany(localIds),
    getByTaskId: (endpoint, taskId) => history.getByTaskId(endpoint, taskId),
    list: (query) => history.list(query),
    count: (query) => history.count(query),
    newerTaskIds: () => history.newerTaskIds(),
    textWithNewerFields: (record) => history.textWithNewerFields(record),
    putManyCounted: (records, carried) =>
      worker.call('putManyCounted', carried ? { records, carried } : { records }),
  };
}

/** A triage write over many images and its Undo (history-worker-ops.ts), off main's thread. */
export interface TriageWrites {
  triage(args: HistoryOps['triage']['args']): Promise<TriageWritten>;
  restoreTriage(args: HistoryOps['restoreTriage']['args']): Promise<TriageWritten>;
}

/**
 * `write` run by the worker, `history` (main's store) told the log entries it made are its own
 * before its change feed may look again (else the feed, looking between the worker's commit and
 * its answer, would report them as another process's: each task read and announced twice).
 */
async function noted<T extends { logged: Logged }>(
  history: HistoryStore,
  write: () => Promise<T>,
): Promise<T> {
  const release = history.holdChanges();
  try {
    const written = await write();
    history.ownElsewhere(written.logged);
    return written;
  } finally {
    release();
  }
}

/** Triage written by `worker`; `history` (main's store) told the log entries are its own. */
export function triageInWorker(history: HistoryStore, worker: HistoryPort): TriageWrites {
  return {
    triage: (args) => noted(history, () => worker.call('triage', args)),
    restoreTriage: (args) => noted(history, () => worker.call('restoreTriage', args)),
  };
}

/** The trash's writes run by `worker`; `history` (main's store) told the log entries are its own. */
export function userWritesInWorker(history: HistoryStore, worker: HistoryPort): UserWrites {
  const call = <T extends { logged: Logged }>(write: () => Promise<T>) => noted(history, write);
  return {
    remove: async (localId, watch) =>
      (await call(() => worker.call('removeTask', watch ? { localId, watch } : { localId })))
        .removed,
    reinstate: async (record, watched) => {
      await call(() => worker.call('reinstateTask', { record, watched }));
    },
    imageFiles: async ({ localId, index }, patch, at) =>
      (await call(() => worker.call('imageFiles', { localId, index, patch, at }))).record,
    // What a sidecar needs of a task the engine does not hold (a triage change): read there too.
    records: (localIds) => worker.call('records', { localIds }),
  };
}
