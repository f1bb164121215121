/**
 * The send mark: what lets a restart send a task that was stored but never sent, without ever
 * sending one twice. A batch or a compare stores all its tasks first, then sends them a few at a
 * time (submit-slots.ts, Submitter.waitForRoom); a process that ends meanwhile leaves some never
 * sent. Sending those is their first submit, not a second, if and only if the request is known
 * not to have left, so the record says so (`TaskRecord.sendState`):
 *
 * - `queued` is written by this version only, in the transaction that stores the task
 *   (new-tasks.ts), and again after a 429, which says the service took nothing;
 * - `sent` replaces it in the history before each attempt is handed to the network: the write is
 *   made and known to be on disk first ({@link markSent}), or nothing is sent;
 * - so at start a `submitting` task marked `queued` never left, and is sent ({@link neverSent});
 *   one marked `sent` may have reached the service and becomes `submit_unknown`, as before.
 *
 * Why a positive mark, not merely the absence of `sent`: records of earlier versions carry no
 * mark, and theirs may have left. No mark (or one this version cannot read, dropped on read)
 * therefore means "may have left". An earlier version that rewrites a record drops the field,
 * and never sends a `submitting` task it finds: both directions stay on the safe side.
 *
 * Several processes share a library: the mark is written only while this process holds the
 * task's lease with time to spare (task-leases.ts), and as a compare-and-set: in one history
 * transaction that reads the stored record under the write lock and writes only if it is still
 * `queued`. Two processes that both believe a task theirs cannot both mark it, so at most one
 * sends it. A task read back from a file anyone can write (rebuild, an archive: `imported`) is
 * never sent on its word.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { EngineContext } from './engine-context';

/**
 * Whether a task found `submitting` (at start, or left by a process that ended) was certainly
 * never sent: sending it now is its first submit.
 */
export function neverSent(record: TaskRecord): boolean {
  return stillQueued(record) && record.origin === 'submitted' && record.imported !== true;
}

/** The engine's records, as far as the mark needs them (EngineRecords). */
export interface MarkedRecords {
  liveRecord(localId: string): TaskRecord | undefined;
  /**
   * Resolves once the task's writes go where they belong again (an Undo of its removal is being
   * written by another thread: the mark waits for it, so it lands in the history, not the watch).
   */
  whenWritable(localId: string): Promise<void>;
  /**
   * Writes `next` now, in one transaction that first checks that the stored record passes
   * `stillSo`; null when it does not (the task is another process's).
   * @throws the history's refusal (nothing written).
   */
  commitBeforeSend(next: TaskRecord, stillSo: (stored: TaskRecord) => boolean): TaskRecord | null;
}

/** Whether the task may be sent now, with its record as marked. */
type SendTurn =
  | { readonly marked: TaskRecord }
  /** The engine stopped, or the task is gone or (now) another process's: nothing written. */
  | { readonly notSent: true }
  /** The history refused the mark: the request must not leave. */
  | { readonly refused: unknown };

/**
 * Marks the task `sent` on disk, right before its request is handed to the network (call it
 * with nothing awaited in between, so no stop and no lease change slips in).
 */
export function markSent(
  ctx: Pick<EngineContext, 'isStopped' | 'owns'>,
  records: MarkedRecords,
  localId: string,
): SendTurn {
  const record = records.liveRecord(localId);
  if (!record || ctx.isStopped()) return { notSent: true };
  // Not ours (any more): owns() has already let the task go.
  if (!ctx.owns(localId)) return { notSent: true };
  try {
    const marked = records.commitBeforeSend(
      { ...record, sendState: 'sent', error: null },
      stillQueued,
    );
    return marked ? { marked } : { notSent: true };
  } catch (error) {
    return { refused: error };
  }
}

/** Nobody has sent the stored task: still `submitting`, no id, marked `queued`. */
function stillQueued(stored: TaskRecord): boolean {
  return stored.status === 'submitting' && stored.taskId === null && stored.sendState === 'queued';
}
