/** How a task's end decides whether it was billed, per its profile's rule. */
import { describe, expect, it } from 'vitest';
import { settledCost, withAnswerCost } from '../../../../electron/core/engine/task-costs';
import { silentLogger } from '../../../../electron/ports/logger';
import type { TaskCost } from '../../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeTaskRecord } from '../../../support/task-records';

const ESTIMATE: TaskCost = { source: 'estimated', micros: 10, unit: 'USD', basis: 'image' };
const REPORTED: TaskCost = { source: 'reported', micros: 20, unit: 'credits', field: 'cost' };

function ended(fields: Partial<TaskRecord>): TaskCost | undefined {
  return settledCost(makeTaskRecord(fields)).cost;
}

describe('the cost a task keeps for how it ended', () => {
  it('a refused submit costs nothing, whatever it was priced at', () => {
    expect(ended({ status: 'submit_failed', cost: ESTIMATE })).toEqual({ source: 'not_billed' });
    expect(ended({ status: 'submit_failed', cost: { source: 'unknown' } })).toEqual({
      source: 'not_billed',
    });
  });

  it('a record without a cost (from before costs, or tracked) stays out of the ledger', () => {
    const error = { kind: 'task_failed' as const, message: 'no' };
    expect(ended({ status: 'submit_failed' })).toBeUndefined();
    expect(ended({ status: 'failed', error })).toBeUndefined();
  });

  it('an unknown submit outcome and a completed task keep their cost', () => {
    expect(ended({ status: 'submit_unknown', cost: ESTIMATE })).toEqual(ESTIMATE);
    expect(ended({ status: 'completed', cost: REPORTED })).toEqual(REPORTED);
  });

  it('today’s contract: a failure is billed only when the service reported a cost for it', () => {
    const error = { kind: 'task_failed' as const, message: 'no' };
    expect(ended({ status: 'failed', error, cost: ESTIMATE })).toEqual({ source: 'not_billed' });
    expect(ended({ status: 'failed', error, cost: REPORTED })).toEqual(REPORTED);
  });

  it('BFL: a moderated task is not billed, even with the cost its submit answer said', () => {
    const error = { kind: 'moderated' as const, message: 'no' };
    expect(ended({ provider: 'bfl', status: 'failed', error, cost: REPORTED })).toEqual({
      source: 'not_billed',
    });
  });

  it('a report replaces the estimate; an answer that says nothing keeps it', () => {
    const record = makeTaskRecord({ status: 'processing', cost: ESTIMATE });
    expect(withAnswerCost(record, {}, silentLogger).cost).toEqual(ESTIMATE);
    const reported = { micros: 5, unit: 'USD' as const, field: 'usage.cost' };
    expect(withAnswerCost(record, { reportedCost: reported }, silentLogger).cost).toEqual({
      source: 'reported',
      ...reported,
    });
  });
});
