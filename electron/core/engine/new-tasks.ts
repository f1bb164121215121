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
import type { ClosingGate } from '../base';
import { SpendingCapError } from '../errors';
import type {
  EngineAdmission,
  EngineHistory,
  EnginePromptHistory,
  EngineSharing,
} from './engine-types';
import { EngineInputError } from './engine-types';
import { errorKind } from './error-kind';
import type { TaskLeases } from './task-leases';
import { placedInList } from './list-place';

export interface NewTaskDeps {
  readonly history: EngineHistory;
  readonly sharing?: EngineSharing | undefined;
  readonly admission?: EngineAdmission | undefined;
  readonly prompts?: EnginePromptHistory | undefined;
  readonly leases: Pick<TaskLeases, 'owner' | 'until' | 'adopt'>;
  readonly logger: Logger;
  /** The core's closing gate: once the close has begun nothing is stored, so nothing is sent. */
  readonly gate?: Pick<ClosingGate, 'askNow'> | undefined;
}

/**
 * Stores the records (leased to this engine when the history is shared) and returns them as
 * stored (priced, with an admission), each marked `queued`: nothing of it has left yet, which
 * lets a restart send it (send-mark.ts). `passing`: the hard caps the user agreed to pass (see
 * EngineAdmission.admit).
 * @throws the admission's refusal (a cap) as it is; EngineInputError when the history refused;
 *   the closing gate's refusal ("Pictor is closing") once the core's close has begun: every
 *   front's submit (the window's, a batch, a compare, the CLI's, an agent's) stores here first.
 */
export function storeNewTasks(
  deps: NewTaskDeps,
  made: readonly TaskRecord[],
  passing: readonly SpendingCap[] = [],
): TaskRecord[] {
  return askedByFront(deps, () => storedNow(deps, made, passing));
}

/**
 * `change`, a front's ask of the engine (a submit, a tracked id, a resume), run now unless the
 * core's close has begun: then the closing gate's refusal, nothing of it run.
 */
export function askedByFront<T>(deps: Pick<NewTaskDeps, 'gate'>, change: () => T): T {
  return deps.gate ? deps.gate.askNow(change) : change();
}

/**
 * A tracked task's record (TaskEngine.track), processing from now: made only while the core is
 * open, so a task id tracked once the close has begun is refused by the closing gate before
 * anything of it is stored.
 */
export function trackedTask(deps: Pick<NewTaskDeps, 'gate'>, record: TaskRecord): TaskRecord {
  return askedByFront(deps, (): TaskRecord => ({ ...record, status: 'processing' }));
}

/** {@link storeNewTasks} once the gate let it in. */
function storedNow(
  deps: NewTaskDeps,
  made: readonly TaskRecord[],
  passing: readonly SpendingCap[],
): TaskRecord[] {
  const lease = deps.sharing ? { owner: deps.leases.owner, until: deps.leases.until() } : undefined;
  const placed = placedInList(made, deps.history.newestListed?.() ?? null);
  const records = placed.map((record) => ({ ...record, sendState: 'queued' as const }));
  let stored: TaskRecord[] = records;
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
  notePrompts(deps, stored);
  return stored;
}

/**
 * The submit's prompts join the prompt history, whichever front sent it (the app, the CLI), once
 * its tasks are stored: every prompt it sent, not only the first (a template's expansion or a
 * compare of a few prompts sends several). A failure here is logged and sends nothing less: the
 * history of prompts is a convenience, the tasks are what the user asked for.
 */
function notePrompts(deps: NewTaskDeps, stored: readonly TaskRecord[]): void {
  const first = stored[0];
  if (!deps.prompts || !first) return;
  try {
    deps.prompts.note(
      stored.map((record) => record.request.prompt),
      first.createdAt,
    );
  } catch (error) {
    deps.logger.warn('the prompt history could not note a submit', { reason: errorKind(error) });
  }
}
