/**
 * A task's cost as the engine learns it (shared/domain/task-cost.ts): the service's report
 * replaces the estimate the task was admitted with; how the task ended decides whether it was
 * billed at all (a refused submit never is; a task the service ended without results as its
 * profile says).
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { NOT_BILLED, type AnswerCost, type TaskCost } from '../../../shared/domain/task-cost';
import type { Logger } from '../../ports/logger';
import { profileOf } from '../service';

/**
 * `record` with the cost an answer reported; an answer that says nothing keeps what the task had.
 * A refused value is logged by where it was and why, never by what it was.
 */
export function withAnswerCost(record: TaskRecord, answer: AnswerCost, logger: Logger): TaskRecord {
  if (answer.costRefused) {
    logger.warn('refused a cost the service reported', {
      localId: record.localId,
      field: answer.costRefused.field,
      problem: answer.costRefused.problem,
    });
  }
  const reported = answer.reportedCost;
  if (reported === undefined) return record;
  return { ...record, cost: { source: 'reported', ...reported } };
}

/** The cost `record` keeps for how it ended (the same record when nothing changes). */
export function settledCost(record: TaskRecord): TaskRecord {
  const cost = billedCost(record);
  return cost === record.cost ? record : { ...record, cost };
}

function billedCost(record: TaskRecord): TaskCost | undefined {
  // A record from before costs, or a tracked task nothing reported for: left out of the ledger.
  if (record.cost === undefined) return undefined;
  // The built-in demo service never bills, however a task ends.
  if (record.cost.source === 'free') return record.cost;
  // The service refused the submit: nothing was created, nothing billed.
  if (record.status === 'submit_failed') return isNotBilled(record.cost) ? record.cost : NOT_BILLED;
  if (record.status !== 'failed') return record.cost;
  const billing = profileOf(record.provider).cost;
  const kind = record.error?.kind;
  const rule =
    kind === 'moderated'
      ? billing.moderated
      : kind === 'canceled'
        ? billing.canceled
        : billing.failed;
  if (rule === 'billed') return record.cost;
  if (rule === 'as_reported' && record.cost.source === 'reported') return record.cost;
  return isNotBilled(record.cost) ? record.cost : NOT_BILLED;
}

function isNotBilled(cost: TaskCost | undefined): boolean {
  return cost?.source === 'not_billed';
}
