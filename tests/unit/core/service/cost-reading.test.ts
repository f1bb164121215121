/**
 * Where each provider profile finds a task's cost, read through the one check every reported
 * value passes: the contract's shapes (body and header), BFL's credits, and the profiles that
 * report none (their tasks are estimated).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { costOfAnswer } from '../../../../electron/core/service/cost-reading';
import { submitAnswerOf, taskAnswerOf } from '../../../../electron/core/service/profile-answers';
import { profileOf } from '../../../../electron/core/service/providers/profiles';
import { PROVIDER_IDS } from '../../../../shared/domain/providers';

/** An answer's parsed body and its headers, as costOfAnswer takes them. */
function answer(body: unknown, headers: Record<string, string> = {}) {
  return [body, new Headers(headers)] as const;
}

const pictor = profileOf('pictor');

describe('today’s contract', () => {
  it.each([
    [{ usage: { cost: 0.04 } }, { micros: 40_000, unit: 'USD', field: 'usage.cost' }],
    [
      { usage: { cost: '1.5', currency: 'eur' } },
      { micros: 1_500_000, unit: 'EUR', field: 'usage.cost' },
    ],
    [
      { usage: { cost: { amount: 2, currency: 'GBP' } } },
      { micros: 2_000_000, unit: 'GBP', field: 'usage.cost.amount' },
    ],
    [{ usage: { credits: 4 } }, { micros: 4_000_000, unit: 'credits', field: 'usage.credits' }],
    [
      { usage: { cost_usd_micros: 1234 } },
      { micros: 1234, unit: 'USD', field: 'usage.cost_usd_micros' },
    ],
  ])('reads %j', (body, cost) => {
    expect(costOfAnswer(pictor, ...answer(body))).toEqual({ reportedCost: cost });
  });

  it('reads the X-Usage-Cost header, USD when it names no unit', () => {
    expect(costOfAnswer(pictor, ...answer({}, { 'X-Usage-Cost': '3 credits' }))).toEqual({
      reportedCost: { micros: 3_000_000, unit: 'credits', field: 'header x-usage-cost' },
    });
    expect(costOfAnswer(pictor, ...answer({}, { 'x-usage-cost': '0.5' }))).toMatchObject({
      reportedCost: { micros: 500_000, unit: 'USD' },
    });
  });

  it('says nothing when the answer states no cost, or is not an object', () => {
    expect(costOfAnswer(pictor, ...answer({ id: 'x', usage: {} }))).toEqual({});
    expect(costOfAnswer(pictor, ...answer('<html>'))).toEqual({});
    expect(costOfAnswer(pictor, ...answer(null))).toEqual({});
  });

  it('refuses a hostile value by where and why, never what', () => {
    expect(costOfAnswer(pictor, ...answer({ usage: { cost: -3 } }))).toEqual({
      costRefused: { field: 'usage.cost', problem: 'negative' },
    });
    expect(costOfAnswer(pictor, ...answer({}, { 'x-usage-cost': 'lots of DOGE' }))).toEqual({
      costRefused: { field: 'header x-usage-cost', problem: 'unknown unit' },
    });
  });
});

describe('the other profiles', () => {
  it('BFL: the submit answer’s cost, in credits', () => {
    expect(costOfAnswer(profileOf('bfl'), ...answer({ id: 'a', cost: 4.5 }))).toEqual({
      reportedCost: { micros: 4_500_000, unit: 'credits', field: 'cost' },
    });
  });

  it('fal, Replicate, DashScope: none (estimated), and nothing a body says is read as one', () => {
    for (const id of ['fal', 'replicate', 'dashscope'] as const) {
      const body = { cost: 1, usage: { cost: 1, credits: 1 } };
      expect(costOfAnswer(profileOf(id), ...answer(body, { 'x-usage-cost': '1 USD' }))).toEqual({});
      expect(profileOf(id).cost.reportedIn).toEqual([]);
    }
  });

  it('every profile says whether a task it ended without results was billed', () => {
    for (const id of PROVIDER_IDS) {
      const { failed, moderated, canceled } = profileOf(id).cost;
      for (const rule of [failed, moderated, canceled])
        expect(['billed', 'not_billed', 'as_reported']).toContain(rule);
    }
  });
});

describe('an answer read with its cost', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is parsed once: the cost is read from the JSON the answer was read from', () => {
    const headers = new Headers();
    const parse = vi.spyOn(JSON, 'parse');
    const submitted = submitAnswerOf(
      pictor,
      { text: JSON.stringify({ id: 'task-1', usage: { cost: 0.04 } }), headers },
      'sk-key',
    );
    expect(submitted).toMatchObject({ id: 'task-1', reportedCost: { micros: 40_000 } });
    expect(parse).toHaveBeenCalledTimes(1);
    parse.mockClear();
    const body = { id: 'task-1', status: 'processing', usage: { credits: 2 } };
    const read = (json: unknown): unknown => pictor.readPoll(json, 'task-1');
    const polled = taskAnswerOf(pictor, { text: JSON.stringify(body), headers }, read, {
      keys: 'sk-key',
    });
    expect(polled).toMatchObject({ status: 'processing', reportedCost: { unit: 'credits' } });
    expect(parse).toHaveBeenCalledTimes(1);
  });
});
