/**
 * The record a task's sidecar is written from (sidecar-writer.ts): the engine's live copy when it
 * holds one (a task it works on, a removal's Undo held: EngineRecords.holdWhile), else the
 * history's, read by the history worker when the core gives one (UserWrites.records): a triage
 * change of thousands of tasks asks for thousands of sidecars, and main's thread then neither
 * runs SQL nor checks a record for them, only takes in the worker's answer. The reads asked for
 * in one turn of main's loop go as one call.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { EngineRecords } from './engine-records';
import type { UserWrites } from '../../ports/user-writes';

/** Reads of stored records off main's thread (UserWrites.records, the history worker's). */
type StoredReads = Required<Pick<UserWrites, 'records'>>;

/** The record to write a task's sidecar from, now or once read. */
export type SidecarRecord = (
  localId: string,
) => TaskRecord | undefined | Promise<TaskRecord | undefined>;

export function sidecarRecords(
  records: Pick<EngineRecords, 'get' | 'liveRecord'>,
  writes: UserWrites | undefined,
): SidecarRecord {
  if (!writes?.records) return (localId) => records.get(localId);
  const read = coalescedReads({ records: writes.records.bind(writes) });
  return (localId) => records.liveRecord(localId) ?? read(localId);
}

/** `stored`'s reads, those asked for before the current turn's microtasks end made as one call. */
function coalescedReads(stored: StoredReads): (localId: string) => Promise<TaskRecord | undefined> {
  let pending: { localIds: string[]; read: Promise<readonly (TaskRecord | null)[]> } | null = null;
  return (localId) => {
    if (!pending) {
      const localIds: string[] = [];
      const read = Promise.resolve().then(() => {
        pending = null;
        return stored.records(localIds);
      });
      pending = { localIds, read };
    }
    const at = pending.localIds.push(localId) - 1;
    return pending.read.then((found) => found[at] ?? undefined);
  };
}
