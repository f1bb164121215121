/**
 * How many of a key's tasks run on one service, for a provider that runs only so many at once
 * (BFL: 24 per key). Counted from what can still finish there for this engine: tasks it polls
 * and submits under way. A task removed from the history (watched for the ledger only) or on
 * hold (another account's, a refused key, a watch that timed out) is never polled again unless
 * the user acts, so it gives its place up: counting it kept a key's new tasks "submitting"
 * forever once 24 such tasks existed.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';

/** What the count reads of the engine's records. */
export interface RoomRecords {
  liveRecords(): Iterable<TaskRecord>;
  /** Removed from the history, still watched for the ledger (removed-tasks.ts). */
  isDetached(localId: string): boolean;
}

/** The tasks that take a place beside `record`: same service and key, polled or being sent. */
export function runningAlongside(
  record: TaskRecord,
  records: RoomRecords,
  sending: ReadonlySet<string>,
): number {
  let running = 0;
  for (const other of records.liveRecords()) {
    if (other.localId === record.localId) continue;
    if (other.endpoint !== record.endpoint || other.account !== record.account) continue;
    if (sending.has(other.localId) || takesPlace(other, records)) running += 1;
  }
  return running;
}

function takesPlace(record: TaskRecord, records: RoomRecords): boolean {
  return (
    record.status === 'processing' && record.hold === null && !records.isDetached(record.localId)
  );
}
