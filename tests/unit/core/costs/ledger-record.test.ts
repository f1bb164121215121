/**
 * The cost ledger as its own record (history schema v8): removing tasks never changes what was
 * spent, its events only grow, a library with costs moves in once, and the spending caps count
 * every task of their scope in their own unit, whatever unit a task was estimated or reported in.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import { SpendingCapError } from '../../../../electron/core/errors/spending-cap-error';
import { DEMO_ENDPOINT } from '../../../../electron/core/service/demo-endpoint';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { SpendingCap } from '../../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../../shared/domain/providers';
import type { TaskCost } from '../../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { englishText } from '../../../../shared/i18n/sentence';
import { historyFilePerTest, makeRecord } from '../history/history-fixtures';

const history = historyFilePerTest();

const NOW = Date.parse('2026-11-25T12:00:00Z');
const USD = (micros: number): TaskCost => ({
  source: 'reported',
  micros,
  unit: 'USD',
  field: 'usage.cost',
});
const CREDITS = (micros: number): TaskCost => ({
  source: 'reported',
  micros,
  unit: 'credits',
  field: 'cost',
});

function book(store: HistoryStore): CostBook {
  return new CostBook({ history: store, now: () => NOW, timeZone: 'UTC' });
}

function newTask(localId: string, provider: ProviderId = 'pictor', endpoint?: string): TaskRecord {
  return makeRecord({
    localId,
    provider,
    createdAt: NOW,
    status: 'submitting',
    taskId: null,
    images: [],
    ...(endpoint === undefined ? {} : { endpoint }),
  });
}

/** What a cap's period has spent (the one figure every view of it gives). */
const spentOf = (costs: CostBook, cap: Parameters<CostBook['capSpend']>[0]): number =>
  costs.capSpend(cap).micros;

function hardCap(micros: number, unit: SpendingCap['unit'], provider: ProviderId | null = null) {
  return { period: 'day', unit, provider, kind: 'hard', micros } as const;
}

/** The refusal `admit` throws, as English text (or undefined when it admits). */
function refusalOf(costs: CostBook, records: TaskRecord[]): string | undefined {
  try {
    costs.admit(records, undefined);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(SpendingCapError);
    return englishText((error as SpendingCapError).sentence!);
  }
}

describe('the ledger is its own record', () => {
  it('keeps what removed tasks cost: entries, totals, CSV and a hard cap are unchanged', () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 40_000 });
    costs.setCap(hardCap(80_000, 'USD'));
    const admitted = costs.admit([newTask('one'), newTask('two')], undefined);
    store.put({ ...admitted[0]!, status: 'completed', cost: USD(40_000) });
    const before = {
      entries: costs.entries(),
      totals: costs.totals(),
      csv: costs.csv(),
      refusal: refusalOf(costs, [newTask('three')]),
    };
    expect(before.refusal).toMatch(/daily spending cap of \$0\.08 for/);
    expect(store.delete('one')).toBe(true);
    expect(store.delete('two')).toBe(true);
    expect(store.get('one')).toBeUndefined();
    const after = costs.entries();
    expect(after.map(({ inHistory: _kept, ...rest }) => rest)).toEqual(
      before.entries.map(({ inHistory: _before, ...rest }) => rest),
    );
    expect(after.map((entry) => entry.inHistory)).toEqual([false, false]);
    expect(costs.totals()).toEqual(before.totals);
    expect(costs.csv()).toBe(before.csv.replaceAll(',yes\r\n', ',no\r\n'));
    expect(refusalOf(costs, [newTask('three')]), 'the cap still refuses').toBe(before.refusal);
    expect(spentOf(costs, hardCap(0, 'USD'))).toBe(80_000);
    // Undo of the removal writes the same records back: nothing is counted twice.
    store.put({ ...admitted[0]!, status: 'completed', cost: USD(40_000) });
    store.put(admitted[1]!);
    expect(costs.totals()).toEqual(before.totals);
    expect(costs.entries().map((entry) => entry.inHistory)).toEqual([true, true]);
    store.close();
  });

  it('takes no update or delete of its events, and no delete of its tasks', () => {
    const store = HistoryStore.open(history.file);
    store.put(makeRecord({ localId: 'paid', createdAt: NOW, cost: USD(10_000) }));
    store.close();
    const db = new DatabaseSync(history.file);
    expect(() => db.exec('DELETE FROM ledger_events')).toThrow(/append-only/);
    expect(() => db.exec('UPDATE ledger_events SET micros = 0')).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM ledger_tasks')).toThrow(/append-only/);
    db.close();
  });

  it('appends every change of cost as an event, a not-billed report after a cost as a refund', () => {
    const store = HistoryStore.open(history.file);
    const record = makeRecord({ localId: 't', createdAt: NOW, status: 'processing' });
    const estimate: TaskCost = { source: 'estimated', micros: 5, unit: 'USD', basis: 'image' };
    store.put({ ...record, cost: estimate });
    store.put({ ...record, cost: estimate, polls: 9 });
    store.put({ ...record, cost: USD(7) });
    store.put({ ...record, status: 'failed', cost: { source: 'not_billed' } });
    store.close();
    const db = new DatabaseSync(history.file);
    const events = db.prepare('SELECT kind, unit, micros FROM ledger_events ORDER BY seq').all();
    expect(events.map((row) => [row['kind'], row['unit'], row['micros']])).toEqual([
      ['estimated', 'USD', 5],
      ['reported', 'USD', 7],
      ['refunded', null, null],
    ]);
    db.close();
  });

  it('moves the costs of a library from before the ledger in one migration, losing nothing', () => {
    const old = HistoryStore.open(history.file, { migrations: HISTORY_MIGRATIONS.slice(0, 7) });
    old.put(makeRecord({ localId: 'a', createdAt: NOW - 2, cost: USD(40_000) }));
    old.put(makeRecord({ localId: 'b', createdAt: NOW - 1, provider: 'bfl', cost: CREDITS(3) }));
    old.put(makeRecord({ localId: 'before-costs', createdAt: NOW }));
    old.costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 9 });
    old.close();
    const store = HistoryStore.open(history.file);
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    const entry = (localId: string, provider: ProviderId, createdAt: number, cost: TaskCost) => ({
      localId,
      taskId: `task-${localId}`,
      provider,
      model: 'model-a',
      size: '1024x1024',
      prompt: `prompt of ${localId}`,
      status: 'completed',
      createdAt,
      cost,
      inHistory: true,
    });
    expect(store.costs.entries()).toEqual([
      entry('a', 'pictor', NOW - 2, USD(40_000)),
      entry('b', 'bfl', NOW - 1, CREDITS(3)),
    ]);
    expect(store.costs.prices()).toEqual([
      { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 9 },
    ]);
    expect(store.delete('a')).toBe(true);
    expect(store.costs.counted('USD', null, 0).micros).toBe(40_000);
    store.close();
  });
});

describe('a hard cap holds in every unit', () => {
  it('counts a task by its estimate in the cap unit after its service reports in another', () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    costs.setPrice({ provider: 'bfl', model: '', unit: 'USD', basis: 'image', micros: 40_000 });
    costs.setCap(hardCap(100_000, 'USD'));
    for (const localId of ['one', 'two']) {
      const [admitted] = costs.admit([newTask(localId, 'bfl')], undefined);
      // BFL reports in credits: the USD cap still counts the task's USD estimate.
      store.put({ ...admitted!, status: 'completed', cost: CREDITS(4_000_000) });
    }
    expect(spentOf(costs, hardCap(0, 'USD'))).toBe(80_000);
    expect(refusalOf(costs, [newTask('three', 'bfl')])).toMatch(
      /cap of \$0\.10 for all services\. Spent so far: \$0\.08; this submit adds about \$0\.04\./,
    );
    store.close();
  });

  it('refuses what it cannot count in its unit, saying which price is missing, until it is set', () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    costs.setPrice({ provider: 'bfl', model: '', unit: 'USD', basis: 'image', micros: 40_000 });
    costs.setCap(hardCap(5_000_000, 'credits'));
    expect(refusalOf(costs, [newTask('one', 'bfl')])).toBe(
      'Nothing was submitted: a hard spending cap in credits applies to Black Forest Labs, and Black Forest Labs has no price in credits for the model model-a, so Pictor cannot tell what this submit costs in credits. Set a price in credits for Black Forest Labs in Settings › Costs, then submit again.',
    );
    expect(store.get('one')).toBeUndefined();
    costs.setPrice({
      provider: 'bfl',
      model: '',
      unit: 'credits',
      basis: 'image',
      micros: 2_000_000,
    });
    const [one] = costs.admit([newTask('one', 'bfl')], undefined);
    expect(one!.cost, 'its own cost: the estimate in money').toMatchObject({ unit: 'USD' });
    store.put({ ...one!, status: 'completed', cost: CREDITS(3_000_000) });
    const [two] = costs.admit([newTask('two', 'bfl')], undefined);
    store.put({ ...two!, status: 'completed', cost: CREDITS(3_000_000) });
    // 6 credits spent: a third task is refused whatever its estimate's unit.
    expect(spentOf(costs, hardCap(0, 'credits'))).toBe(6_000_000);
    expect(refusalOf(costs, [newTask('three', 'bfl')])).toMatch(/cap of 5 credits/);
    store.close();
  });

  it('refuses while tasks of its period cannot be counted in its unit, and counts them once priced', () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    // Tasks run before any price was set: their cost is unknown.
    costs.admit([newTask('early-1', 'fal'), newTask('early-2', 'fal')], undefined);
    costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 1_000 });
    costs.setCap(hardCap(1_000_000, 'USD'));
    expect(refusalOf(costs, [newTask('late', 'pictor')])).toBe(
      'Nothing was submitted: your hard daily spending cap in USD cannot count 2 tasks of fal.ai from this period, which have no price in USD. Set a price in USD for fal.ai in Settings › Costs, then submit again.',
    );
    costs.setPrice({
      provider: 'fal',
      model: '',
      unit: 'USD',
      basis: 'megapixel',
      micros: 200_000,
    });
    expect(spentOf(costs, hardCap(0, 'USD')), 'two 1024x1024 tasks at 0.2 USD/MP').toBe(419_430);
    expect(refusalOf(costs, [newTask('late', 'pictor')])).toBeUndefined();
    store.close();
  });

  it('counts the tasks of one service only in that service cap, and lets free demo tasks by', () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 50_000 });
    costs.setCap(hardCap(0, 'USD', 'fal'));
    costs.setCap(hardCap(0, 'USD'));
    const [demo] = costs.admit([newTask('demo', 'pictor', DEMO_ENDPOINT)], undefined);
    expect(demo!.cost).toEqual({ source: 'free' });
    store.put({ ...demo!, status: 'failed', cost: { source: 'free' } });
    expect(costs.entries().map((entry) => entry.cost)).toEqual([{ source: 'free' }]);
    expect(refusalOf(costs, [newTask('paid', 'pictor')])).toMatch(
      /cap of \$0\.00 for all services/,
    );
    costs.clearCaps({ provider: null });
    expect(refusalOf(costs, [newTask('paid', 'pictor')]), 'the fal cap is not pictor').toBe(
      undefined,
    );
    store.close();
  });
});
