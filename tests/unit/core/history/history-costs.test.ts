/**
 * The history's cost tables (schema v7, v8): a task's cost in its row and in the ledger, the
 * ledger's entries and sums, prices and caps kept where every process reads them, a file from before
 * costs upgraded in place, and the admission that checks a cap and inserts in one transaction.
 */
import { describe, expect, it } from 'vitest';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import { SpendingCapError } from '../../../../electron/core/errors/spending-cap-error';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { englishText } from '../../../../shared/i18n/sentence';
import { historyFilePerTest, makeRecord } from './history-fixtures';

const history = historyFilePerTest();

const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('costs in the history', () => {
  it('are read back per task and summed per unit from the columns', () => {
    const store = HistoryStore.open(history.file);
    store.put(
      makeRecord({
        localId: 'a',
        createdAt: NOW - 1000,
        cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
      }),
    );
    store.put(
      makeRecord({
        localId: 'b',
        createdAt: NOW - 500,
        provider: 'bfl',
        cost: { source: 'reported', micros: 3_000_000, unit: 'credits', field: 'cost' },
      }),
    );
    store.put(makeRecord({ localId: 'old', createdAt: NOW - 400 }));
    store.put(
      makeRecord({ localId: 'free', createdAt: NOW - 300, cost: { source: 'not_billed' } }),
    );
    const entries = store.costs.entries();
    expect(entries.map((entry) => [entry.localId, entry.provider, entry.cost])).toEqual([
      ['a', 'pictor', { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' }],
      ['b', 'bfl', { source: 'reported', micros: 3_000_000, unit: 'credits', field: 'cost' }],
      ['free', 'pictor', { source: 'not_billed' }],
    ]);
    expect(store.costs.entries({ provider: 'bfl' }).map((entry) => entry.localId)).toEqual(['b']);
    expect(store.costs.entries({ since: NOW - 600 }).map((entry) => entry.localId)).toEqual([
      'b',
      'free',
    ]);
    expect(store.costs.counted('USD', null, 0).micros).toBe(40_000);
    expect(store.costs.counted('credits', 'bfl', 0).micros).toBe(3_000_000);
    // The USD task has no amount in credits: counted apart, for a cap check to price or refuse.
    expect(store.costs.counted('credits', 'pictor', 0)).toMatchObject({
      micros: 0,
      unpriced: [{ provider: 'pictor', tasks: 1 }],
    });
    store.close();
  });

  it('come to a file written before costs: upgraded in place, its tasks kept, none in the ledger', () => {
    const old = HistoryStore.open(history.file, { migrations: HISTORY_MIGRATIONS.slice(0, 6) });
    old.put(makeRecord({ localId: 'before', createdAt: NOW }));
    old.close();
    const store = HistoryStore.open(history.file);
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(store.get('before')?.localId).toBe('before');
    expect(store.costs.entries()).toEqual([]);
    store.put({
      ...store.get('before')!,
      cost: { source: 'estimated', micros: 5, unit: 'EUR', basis: 'image' },
    });
    expect(store.costs.counted('EUR', null, 0).micros).toBe(5);
    store.close();
  });

  it('keep prices and caps for every process, replacing one of the same kind', () => {
    const one = HistoryStore.open(history.file);
    const two = HistoryStore.open(history.file);
    one.costs.setPrice({
      provider: 'fal',
      model: '',
      unit: 'USD',
      basis: 'megapixel',
      micros: 3_000,
    });
    one.costs.setCap({
      period: 'day',
      unit: 'USD',
      provider: null,
      kind: 'hard',
      micros: 1_000_000,
    });
    one.costs.setCap({
      period: 'day',
      unit: 'USD',
      provider: null,
      kind: 'hard',
      micros: 2_000_000,
    });
    one.costs.setCap({
      period: 'month',
      unit: 'credits',
      provider: 'bfl',
      kind: 'soft',
      micros: 9,
    });
    expect(two.costs.prices()).toEqual([
      { provider: 'fal', model: '', unit: 'USD', basis: 'megapixel', micros: 3_000 },
    ]);
    expect(two.costs.caps()).toEqual([
      { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 2_000_000 },
      { period: 'month', unit: 'credits', provider: 'bfl', kind: 'soft', micros: 9 },
    ]);
    expect(two.costs.clearCaps({ provider: 'bfl' })).toBe(1);
    expect(one.costs.caps()).toHaveLength(1);
    expect(two.costs.clearPrice('fal', '')).toBe(true);
    expect(one.costs.prices()).toEqual([]);
    one.close();
    two.close();
  });
});

describe('the admission of new tasks', () => {
  function book(store: HistoryStore): CostBook {
    return new CostBook({ history: store, now: () => NOW, timeZone: 'UTC' });
  }
  const task = (localId: string) =>
    makeRecord({ localId, createdAt: NOW, status: 'submitting', taskId: null });

  it('prices each task, and a hard cap refuses what would pass it: nothing is stored', () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 400_000 });
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 1_000_000 });
    const admitted = costs.admit([task('one'), task('two')], undefined);
    expect(admitted.map((record) => record.cost)).toEqual([
      { source: 'estimated', micros: 400_000, unit: 'USD', basis: 'image' },
      { source: 'estimated', micros: 400_000, unit: 'USD', basis: 'image' },
    ]);
    let refusal: unknown;
    try {
      costs.admit([task('three')], undefined);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SpendingCapError);
    const said = (refusal as SpendingCapError).sentence!;
    expect(englishText(said)).toBe(
      'Nothing was submitted: this would pass your daily spending cap of $1.00 for all services. Spent so far: $0.80; this submit adds about $0.40. Raise or clear the cap in Settings to go on.',
    );
    expect(store.get('three')).toBeUndefined();
    // A not-billed task frees its reservation.
    store.put({ ...store.get('two')!, status: 'submit_failed', cost: { source: 'not_billed' } });
    expect(costs.admit([task('three')], undefined)).toHaveLength(1);
    store.close();
  });

  it('refuses, under a hard cap, a task it cannot price; a soft cap only warns', () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    costs.setCap({
      period: 'month',
      unit: 'USD',
      provider: 'pictor',
      kind: 'hard',
      micros: 5_000_000,
    });
    expect(() => costs.admit([task('unpriced')], undefined)).toThrow(
      /cannot tell what this submit costs in USD/,
    );
    costs.clearCaps();
    costs.setCap({ period: 'month', unit: 'USD', provider: null, kind: 'soft', micros: 100 });
    costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 1_000 });
    const preview = costs.preview(
      { provider: 'pictor', endpoint: 'https://images.example.test' },
      { prompt: 'x' },
      2,
    );
    expect(preview.perTask).toMatchObject({ micros: 1_000 });
    expect(preview.refusal).toBeUndefined();
    expect(preview.warnings.map(englishText)).toEqual([
      'This submit passes your soft monthly spending cap of $0.0001 for all services: $0.00 spent so far, and it adds about $0.002.',
    ]);
    expect(costs.admit([task('warned')], undefined)).toHaveLength(1);
    store.close();
  });
});
