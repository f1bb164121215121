/**
 * What tasks cost, through the real core against the demo service over loopback: each way the
 * contract reports a cost (the submit answer, every task answer, only the finished one, a header),
 * credits beside USD, the user's price as an estimate, a failure the service did not bill, and
 * hostile values refused without breaking the record or reaching the log. The core and the demo
 * run on one manual clock (clockedCoreAgainstDemo): each wait is on its condition.
 */
import { describe, expect, it } from 'vitest';
import type { DemoCost } from '../../../electron/demo-service/types';
import type { LogFields, Logger } from '../../../electron/ports/logger';
import { DONE_AT_FIRST_POLL, clockedCoreAgainstDemo as coreAgainstDemo } from './core-harness';

/** A logger that keeps every warning, to read what a refusal logged. */
function keptWarnings(): { logger: Logger; warnings: { message: string; fields?: LogFields }[] } {
  const warnings: { message: string; fields?: LogFields }[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }),
    error: () => undefined,
  };
  return { logger, warnings };
}

async function oneTask(cost: DemoCost | null, prompt = 'a paper boat', logger?: Logger) {
  const h = await coreAgainstDemo({ ...DONE_AT_FIRST_POLL, cost }, {}, logger ? { logger } : {});
  h.core.engine.start();
  const [submitted] = await h.core.engine.submit({ prompt }, h.target);
  const [done] = await h.settle([submitted!.localId]);
  return { h, submitted: submitted!, done: done! };
}

describe('a cost the service reports', () => {
  it('in the submit answer: recorded from the moment the task is accepted', async () => {
    const { h, done } = await oneTask({ where: 'submit', usage: { cost: 0.04, currency: 'usd' } });
    expect(done.status).toBe('completed');
    expect(done.cost).toEqual({
      source: 'reported',
      micros: 40_000,
      unit: 'USD',
      field: 'usage.cost',
    });
    expect(h.core.history.get(done.localId)?.cost).toEqual(done.cost);
  });

  it('late, only once the task completed: the estimate stands until then, the report replaces it', async () => {
    const h = await coreAgainstDemo({
      cost: { where: 'late', usage: { cost: '0.055' } },
      durationMs: 800,
    });
    h.core.costs.setPrice({
      provider: 'pictor',
      model: '',
      unit: 'USD',
      basis: 'image',
      micros: 30_000,
    });
    h.core.engine.start();
    const [submitted] = await h.core.engine.submit({ prompt: 'a late bill' }, h.target);
    expect(submitted!.cost).toEqual({
      source: 'estimated',
      micros: 30_000,
      unit: 'USD',
      basis: 'image',
    });
    const [done] = await h.settle([submitted!.localId]);
    expect(done!.polls, 'polled while running without a cost').toBeGreaterThan(1);
    expect(done!.cost).toEqual({
      source: 'reported',
      micros: 55_000,
      unit: 'USD',
      field: 'usage.cost',
    });
  });

  it('in a header, and in credits beside USD: each sum stays in its own unit', async () => {
    const credits = await oneTask({ where: 'header', header: '3 credits' });
    expect(credits.done.cost).toEqual({
      source: 'reported',
      micros: 3_000_000,
      unit: 'credits',
      field: 'header x-usage-cost',
    });
    const usd = await oneTask({ where: 'poll', usage: { cost_usd_micros: 120_000 } });
    expect(usd.done.cost).toMatchObject({ micros: 120_000, unit: 'USD' });
    // Both in one library: the credits task's record moved into the USD one's history.
    usd.h.core.history.put(credits.done);
    const totals = usd.h.core.costs.totals();
    expect(totals.overall).toEqual([
      { unit: 'credits', micros: 3_000_000, estimatedMicros: 0, tasks: 1 },
      { unit: 'USD', micros: 120_000, estimatedMicros: 0, tasks: 1 },
    ]);
  });

  it('a failure the service reported no cost for was not billed; one it reported keeps its cost', async () => {
    const unbilled = await coreAgainstDemo({ ...DONE_AT_FIRST_POLL, failureRate: 1 });
    unbilled.core.costs.setPrice({
      provider: 'pictor',
      model: '',
      unit: 'USD',
      basis: 'image',
      micros: 10_000,
    });
    unbilled.core.engine.start();
    const [estimated] = await unbilled.core.engine.submit(
      { prompt: 'this one fails' },
      unbilled.target,
    );
    expect(estimated!.cost).toMatchObject({ source: 'estimated', micros: 10_000 });
    const [failed] = await unbilled.settle([estimated!.localId]);
    expect(failed!.status).toBe('failed');
    expect(failed!.cost).toEqual({ source: 'not_billed' });
    expect(unbilled.core.costs.totals().overall, 'nothing summed').toEqual([]);

    const billed = await coreAgainstDemo({
      ...DONE_AT_FIRST_POLL,
      failureRate: 1,
      cost: { where: 'late', usage: { credits: 2 } },
    });
    billed.core.engine.start();
    const [sent] = await billed.core.engine.submit({ prompt: 'billed anyway' }, billed.target);
    const [ended] = await billed.settle([sent!.localId]);
    expect(ended!.status).toBe('failed');
    expect(ended!.cost).toMatchObject({ source: 'reported', micros: 2_000_000, unit: 'credits' });
  });
});

describe('hostile cost values', () => {
  const HOSTILE: [string, DemoCost][] = [
    ['a negative amount', { where: 'submit', usage: { cost: -5 } }],
    ['a NaN-like string', { where: 'poll', usage: { cost: 'NaN' } }],
    ['Infinity as text', { where: 'late', usage: { credits: 'Infinity' } }],
    ['a huge number', { where: 'poll', usage: { cost: 1e300 } }],
    ['an unknown unit', { where: 'poll', usage: { cost: 1, currency: 'DOGE' } }],
    ['an exponent string', { where: 'header', header: '1e9 USD' }],
    ['an object for an amount', { where: 'poll', usage: { credits: { value: 1 } } }],
  ];

  it.each(HOSTILE)(
    '%s is refused: the task completes with no reported cost, the log names the field only',
    async (_, cost) => {
      const { logger, warnings } = keptWarnings();
      const { done } = await oneTask(cost, 'a hostile bill', logger);
      expect(done.status).toBe('completed');
      expect(done.images.map((image) => image.state)).toEqual(['saved']);
      expect(done.cost?.source ?? 'unknown').toBe('unknown');
      const refusals = warnings.filter((entry) => /refused a cost/.test(entry.message));
      expect(refusals.length).toBeGreaterThan(0);
      for (const refusal of refusals) {
        expect(Object.keys(refusal.fields ?? {}).sort()).toEqual(['field', 'localId', 'problem']);
        expect(refusal.fields?.['problem']).toMatch(
          /^(negative|not a number|not a finite number|not a plain decimal number|too large|unknown unit)$/,
        );
        // The local id is a UUID (hex: it may hold "1e9"); the rest is Pictor's own words.
        const { localId: _id, ...said } = refusal.fields ?? {};
        expect(JSON.stringify([refusal.message, said])).not.toMatch(
          /DOGE|Infinity|1e300|1e\+300|1e9/,
        );
      }
    },
  );
});

describe('a task removed while its service works on it', () => {
  /** The demo keeps tasks running until the test completes them. */
  const running = { durationMs: 600_000 };

  it('keeps its ledger entry and gets its reported cost when it ends, with nothing downloaded', async () => {
    const h = await coreAgainstDemo({
      ...running,
      cost: { where: 'late', usage: { cost: '0.055' } },
    });
    h.core.costs.setPrice({
      provider: 'pictor',
      model: '',
      unit: 'USD',
      basis: 'image',
      micros: 30_000,
    });
    h.core.engine.start();
    const [submitted] = await h.core.engine.submit({ prompt: 'removed while running' }, h.target);
    const { localId } = submitted!;
    await h.drive(() => h.core.history.get(localId)?.status === 'processing');
    expect(await h.core.engine.remove(localId)).toBe(true);
    expect(h.core.history.get(localId), 'gone from the history').toBeUndefined();
    const seen: string[] = [];
    h.core.engine.onDidUpdate(({ record }) => seen.push(record.localId));
    expect(h.core.costs.entries()).toMatchObject([
      { localId, inHistory: false, cost: { source: 'estimated', micros: 30_000 } },
    ]);
    h.service.completeTask(h.service.tasks()[0]!.id);
    // The late report lands in the ledger.
    await h.drive(() => h.core.costs.entries()[0]?.cost.source === 'reported');
    expect(h.core.costs.entries()[0]?.cost).toEqual({
      source: 'reported',
      micros: 55_000,
      unit: 'USD',
      field: 'usage.cost',
    });
    expect(h.core.costs.entries()[0]?.status).toBe('completed');
    expect(h.core.history.get(localId), 'never written back to the history').toBeUndefined();
    expect(h.core.history.watched(), 'no longer watched').toEqual([]);
    expect(seen, 'never shown to the window again').not.toContain(localId);
    expect(h.service.log.submits).toHaveLength(1);
    expect(h.service.log.downloads, 'its images are not fetched').toHaveLength(0);
  });

  it('is watched again after a restart, and comes back whole when its removal is undone', async () => {
    const h = await coreAgainstDemo({
      ...running,
      cost: { where: 'late', usage: { cost: '0.02' } },
    });
    h.core.engine.start();
    const [first, second] = await h.core.engine.submit(
      { prompt: 'removed, then restarted' },
      h.target,
      2,
    );
    await h.drive(() =>
      [first, second].every((task) => h.core.history.get(task!.localId)?.status === 'processing'),
    );
    expect(await h.core.engine.remove(first!.localId)).toBe(true);
    expect(await h.core.engine.remove(second!.localId)).toBe(true);
    const kept = h.core.history.watched().find((task) => task.localId === second!.localId);
    expect((await h.core.engine.reinstate(kept!)).localId).toBe(second!.localId);
    expect(h.core.history.get(second!.localId)?.status).toBe('processing');
    await h.restart();
    expect(h.core.history.watched().map((task) => task.localId)).toEqual([first!.localId]);
    h.core.engine.start();
    for (const task of h.service.tasks()) h.service.completeTask(task.id);
    const [back] = await h.settle([second!.localId]);
    expect(
      back!.images.map((image) => image.state),
      'the undone one is downloaded',
    ).toEqual(['saved']);
    await h.drive(() => h.core.costs.entries().every((entry) => entry.cost.source === 'reported'));
    expect(h.core.costs.entries().map((entry) => [entry.localId, entry.cost.source])).toEqual(
      [first!, second!]
        .sort((a, b) => a.createdAt - b.createdAt || a.localId.localeCompare(b.localId))
        .map((task) => [task.localId, 'reported']),
    );
    expect(h.core.history.get(first!.localId)).toBeUndefined();
    expect(h.core.history.watched()).toEqual([]);
    expect(h.service.log.submits, 'nothing submitted twice').toHaveLength(2);
  });
});
