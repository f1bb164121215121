/** Reading a cost a service reported: what is kept, what is refused (and why, never the value). */
import { describe, expect, it } from 'vitest';
import {
  checkReportedCost,
  formatMicros,
  readCostUnit,
  taskCostSchema,
} from '../../../shared/domain/task-cost';
import { taskRecordSchema } from '../../../shared/domain/task-record';
import { readTypedAmount } from '../../../shared/domain/cost-amounts';

const read = (amount: unknown, unit: unknown = 'USD', inMicros = false) =>
  checkReportedCost({ field: 'usage.cost', amount, unit, inMicros });

describe('a reported cost', () => {
  it.each([
    [0.04, 'USD', 40_000],
    ['0.04', 'usd', 40_000],
    [' 12 ', 'EUR', 12_000_000],
    [3, 'credit', 3_000_000],
    [0, 'Credits', 0],
    [0.1 + 0.2, 'USD', 300_000],
  ])('%j %s is %i micros', (amount, unit, micros) => {
    const said = read(amount, unit);
    expect(said).toEqual({
      ok: true,
      cost: { micros, unit: readCostUnit(unit), field: 'usage.cost' },
    });
  });

  it('in micros already (usage_cost_usd_micros)', () => {
    expect(read(120_000, 'USD', true)).toMatchObject({ ok: true, cost: { micros: 120_000 } });
  });

  it.each([
    [-1, 'USD', 'negative'],
    ['-0.5', 'USD', 'negative'],
    [Number.NaN, 'USD', 'not a finite number'],
    [Number.POSITIVE_INFINITY, 'USD', 'not a finite number'],
    ['NaN', 'USD', 'not a plain decimal number'],
    ['Infinity', 'USD', 'not a plain decimal number'],
    ['1e3', 'USD', 'not a plain decimal number'],
    ['0x10', 'USD', 'not a plain decimal number'],
    ['1'.repeat(50), 'USD', 'too long'],
    [1e300, 'USD', 'too large'],
    [2_000_000, 'USD', 'too large'],
    [null, 'USD', 'not a number'],
    [{ amount: 1 }, 'USD', 'not a number'],
    [true, 'USD', 'not a number'],
    [1, 'DOGE', 'unknown unit'],
    [1, 'US Dollars', 'unknown unit'],
    [1, 42, 'unknown unit'],
    [1, 'USD\u202e', 'unknown unit'],
  ])('%j in %j is refused: %s', (amount, unit, problem) => {
    expect(read(amount, unit)).toEqual({ ok: false, field: 'usage.cost', problem });
  });
});

describe('amounts as text', () => {
  it.each([
    [40_000, '0.04'],
    [0, '0'],
    [3_000_000, '3'],
    [1_234_567_891, '1234.567891'],
    [5, '0.000005'],
  ])('%i micros read %s', (micros, text) => {
    expect(formatMicros(micros)).toBe(text);
    expect(readTypedAmount(text, { unit: 'USD', kind: 'price' })).toEqual({ ok: true, micros });
  });
});

describe('a cost read back from disk', () => {
  it('that is damaged is dropped, not the task', () => {
    expect(
      taskCostSchema().safeParse({ source: 'reported', micros: -1, unit: 'USD', field: 'x' })
        .success,
    ).toBe(false);
    const record = {
      localId: 'a',
      taskId: null,
      origin: 'submitted',
      endpoint: 'demo:',
      account: 'x',
      request: { prompt: 'p' },
      status: 'submitting',
      hold: null,
      error: null,
      createdAt: 1,
      updatedAt: 1,
      submittedAt: null,
      finishedAt: null,
      watchStartedAt: null,
      polls: 0,
      lastPolledAt: null,
      images: [],
      favourite: false,
      folder: null,
      cost: { source: 'reported', micros: 'lots', unit: 'USD', field: 'x' },
    };
    const parsed = taskRecordSchema().safeParse(record);
    expect(parsed.success).toBe(true);
    expect(parsed.success && parsed.data.cost).toBeUndefined();
  });
});
