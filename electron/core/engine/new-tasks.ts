/**
 * New tasks reach the history before anything is sent for them, all or none: a request whose
 * task id the history could not keep is never sent (a crash would lose the id, and with it the
 * images). With an admission (the cost ledger), the same transaction prices them and checks the
 * spending caps first, so two processes submitting at once cannot both pass a cap.
 */
import type { SpendingCap } from '../../../shared/domain/cost-ledger';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import type { Logger } from '../../ports/logger';
import { SpendingCapError } from '../errors/spending-cap-error';
import type { EngineAdmission, EngineHistory, EngineSharing } from './engine-types';
import { EngineInputError } from './engine-types';
import { errorKind } from './error-kind';
import type { TaskLeases } from './task-leases';

export interface NewTaskDeps {
  readonly history: EngineHistory;
  readonly sharing?: EngineSharing | undefined;
  readonly admission?: EngineAdmission | undefined;
  readonly leases: Pick<TaskLeases, 'owner' | 'until' | 'adopt'>;
  readonly logger: Logger;
}

/**
 * Stores the records (leased to this engine when the history is shared) and returns them as
 * stored (priced, with an admission). `passing`: the hard caps the user agreed to pass (see
 * EngineAdmission.admit).
 * @throws the admission's refusal (a cap) as it is; EngineInputError when the history refused.
 */
export function storeNewTasks(
  deps: NewTaskDeps,
  records: readonly TaskRecord[],
  passing: readonly SpendingCap[] = [],
): TaskRecord[] {
  const lease = deps.sharing ? { owner: deps.leases.owner, until: deps.leases.until() } : undefined;
  let stored: TaskRecord[] = [...records];
  try {
    if (deps.admission) stored = deps.admission.admit(records, lease, passing);
    else if (deps.sharing && lease) deps.sharing.putMany(records, lease);
    else deps.history.putMany(records);
  } catch (error) {
    // A spending cap's refusal says so itself.
    if (error instanceof SpendingCapError) throw error;
    deps.logger.error('history write failed before a submit', { reason: errorKind(error) });
    throw new EngineInputError(sentence('error.library.historyWriteBeforeSubmit'));
  }
  if (lease) deps.leases.adopt(stored.map((record) => record.localId));
  return stored;
}
