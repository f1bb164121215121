/**
 * Tasks stored but never sent (send-mark.ts `neverSent`), found at start or left by a Pictor
 * process that ended: each is sent now, under its own local id, with its own request and fields
 * (batch, compare, template, board), through the same in-flight limits as any submit.
 *
 * No spending cap is checked again and no consent asked again: the task was admitted when it was
 * stored (priced and checked against the caps, past a hard cap only with the user's consent, in
 * the transaction that stored it: new-tasks.ts), and the ledger has counted its cost ever since.
 * Sending it spends nothing the user did not already agree to.
 *
 * A batch's unsent tasks go as a batch does: the first alone, the others once the service took it
 * (Submitter.runBatch), since the key or the credits may have changed since. A compare's tasks,
 * and tasks of no batch, go each on its own.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Submitter } from './submitter';

export function sendUnsent(
  submitter: Pick<Submitter, 'run' | 'runBatch'>,
  records: readonly TaskRecord[],
): Promise<unknown> {
  const batches = new Map<string, TaskRecord[]>();
  const sends: Promise<unknown>[] = [];
  for (const record of records) {
    if (record.batchId === undefined) sends.push(submitter.run(record.localId));
    else batches.set(record.batchId, [...(batches.get(record.batchId) ?? []), record]);
  }
  for (const batch of batches.values()) sends.push(submitter.runBatch(batch));
  return Promise.all(sends);
}
