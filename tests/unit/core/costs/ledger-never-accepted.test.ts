/**
 * A request the service never accepted (`submit_failed`: refused or not reached, no task id,
 * nothing billed) is not a task of the ledger (history v21, core/history/ledger-accepted-schema.ts).
 * While its submit is out it counts as every admitted task does (the cap counts its estimate, the
 * lists show it); once refused it leaves every list, count and total at once, and each reader
 * agrees: the Costs screen's list, its task count and the ledger's size (its empty state), the
 * CSV, `pictor costs`' entries and totals, a cap's spend and its tasks it cannot count. Sent again
 * after all (the Undo of a task removed before it was sent), it comes back. A library written
 * by the version before keeps its figures but those requests after the migration, its sums those
 * of a library written from the start by this one; and the version before refuses the migrated
 * file (it is newer) without changing it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { leaveNeverAcceptedV21 } from '../../../../electron/core/history/ledger-accepted-schema';
import { HistoryError } from '../../../../electron/core/history/history-error';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { NOT_BILLED, type TaskCost } from '../../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { historyFilePerTest, makeRecord } from '../history/history-fixtures';

const history = historyFilePerTest();

const NOW = Date.parse('2026-11-25T12:00:00Z');
const PRICE = {
  provider: 'pictor',
  model: '',
  unit: 'USD',
  basis: 'image',
  micros: 50_000,
} as const;
const CAP = { period: 'day', unit: 'USD', provider: null } as const;
const REPORTED: TaskCost = { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' };

function book(store: HistoryStore): CostBook {
  return new CostBook({ history: store, now: () => NOW, timeZone: 'UTC' });
}

function submitting(localId: string, at: number, model = 'model-a'): TaskRecord {
  return makeRecord({
    localId,
    createdAt: at,
    status: 'submitting',
    taskId: null,
    images: [],
    request: { prompt: `prompt of ${localId}`, model, size: '1024x1024' },
  });
}

/** `record` as the engine ends it when the service refused its submit (task-costs.ts). */
function refused(record: TaskRecord): TaskRecord {
  return {
    ...record,
    status: 'submit_failed',
    updatedAt: record.updatedAt + 1,
    error: { kind: 'network', message: 'not reached' },
    cost: NOT_BILLED,
  };
}

/** `record` accepted, then finished: billed as reported, or failed and not billed. */
function accepted(record: TaskRecord, cost: TaskCost): TaskRecord {
  return {
    ...record,
    taskId: `task-${record.localId}`,
    status: cost.source === 'not_billed' ? 'failed' : 'completed',
    updatedAt: record.updatedAt + 1,
    cost,
  };
}

/** Every figure a reader of the ledger gives: the lists' ids and the counts and sums. */
async function figures(costs: CostBook) {
  const ids = (entries: readonly { localId: string }[]) => entries.map((entry) => entry.localId);
  const screen = await costs.screen({}, 100);
  const csv = [...(await costs.csvChunks({}))].join('');
  const totals = costs.totals({});
  const spend = costs.capSpend(CAP);
  return {
    cli: ids(costs.entries({})),
    screen: ids(screen.entries),
    csvRows: csv.split('\r\n').filter(Boolean).length - 1,
    csvNamesRefused: csv.includes('prompt of refused'),
    total: screen.total,
    allTime: screen.allTime,
    ledgerSize: costs.ledgerSize(),
    overall: totals.overall.map((sum) => [sum.unit, sum.micros, sum.tasks]),
    unknownTasks: totals.unknownTasks,
    spent: spend.micros,
    uncounted: spend.unpriced.reduce((sum, group) => sum + group.tasks, 0),
  };
}

/** A paid task, a task the service accepted and failed unbilled, and one request it refused. */
function library(store: HistoryStore, costs: CostBook): void {
  store.costs.setPrice(PRICE);
  costs.admit([submitting('paid', NOW - 3), submitting('failed', NOW - 2)], undefined);
  costs.admit([submitting('refused', NOW - 1, 'model-b')], undefined);
  const [paid, failed, request] = store.getMany(['paid', 'failed', 'refused']);
  store.put(accepted(paid!, REPORTED));
  store.put(accepted(failed!, NOT_BILLED));
  store.put(refused(request!));
}

/** What every reader says of {@link library}: the refused request nowhere. */
const AFTER_REFUSAL = {
  cli: ['paid', 'failed'],
  screen: ['failed', 'paid'],
  csvRows: 2,
  csvNamesRefused: false,
  total: 2,
  allTime: 2,
  ledgerSize: 2,
  overall: [['USD', 40_000, 1]],
  unknownTasks: 0,
  spent: 40_000,
  uncounted: 0,
};

describe('a request the service never accepted', () => {
  it('counts while its submit is out, and leaves every list and figure once refused', async () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    store.costs.setPrice(PRICE);
    costs.admit([submitting('paid', NOW - 3), submitting('failed', NOW - 2)], undefined);
    costs.admit([submitting('refused', NOW - 1, 'model-b')], undefined);
    const out = await figures(costs);
    expect(out.cli).toEqual(['paid', 'failed', 'refused']);
    expect([out.total, out.allTime, out.ledgerSize, out.spent]).toEqual([3, 3, 3, 150_000]);

    const [paid, failed, request] = store.getMany(['paid', 'failed', 'refused']);
    store.put(accepted(paid!, REPORTED));
    store.put(accepted(failed!, NOT_BILLED));
    const before = store.costs.version()!;
    store.put(refused(request!));
    expect(store.costs.version()).toBeGreaterThan(before);
    expect(await figures(costs)).toEqual(AFTER_REFUSAL);
    // Its rows stay: the ledger is append-only.
    const db = new DatabaseSync(history.file);
    const kinds = db
      .prepare("SELECT kind FROM ledger_events WHERE local_id = 'refused' ORDER BY seq")
      .all()
      .map((row) => row['kind']);
    db.close();
    expect(kinds).toEqual(['estimated', 'not_billed']);
    store.close();
  });

  it('leaves them whether the history keeps its row or not, and the free demo’s alike', async () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    library(store, costs);
    store.delete('refused');
    expect(await figures(costs)).toEqual(AFTER_REFUSAL);
    // Free, so only its status changes when it is refused.
    const demo = makeRecord({
      localId: 'demo-refused',
      createdAt: NOW,
      status: 'submitting',
      taskId: null,
      images: [],
      cost: { source: 'free' },
    });
    store.put(demo);
    expect((await figures(costs)).allTime).toBe(3);
    const before = store.costs.version()!;
    store.put({ ...demo, status: 'submit_failed', updatedAt: demo.updatedAt + 1 });
    expect(store.costs.version()).toBeGreaterThan(before);
    expect(await figures(costs)).toEqual(AFTER_REFUSAL);
    store.put(makeRecord({ ...demo, localId: 'demo-refused-2', status: 'submit_failed' }));
    expect(await figures(costs)).toEqual(AFTER_REFUSAL);
    store.close();
  });

  it('comes back when it is sent again after all', async () => {
    const store = HistoryStore.open(history.file);
    const costs = book(store);
    library(store, costs);
    const [request] = store.getMany(['refused']);
    store.put({ ...request!, status: 'submitting', error: null, updatedAt: NOW + 5 });
    const back = await figures(costs);
    expect(back.cli).toEqual(['paid', 'failed', 'refused']);
    expect([back.total, back.allTime, back.ledgerSize]).toEqual([3, 3, 3]);
    store.close();
  });
});

/** The sums the triggers keep, without the blocks left at zero. */
function sumsOf(path: string): unknown[] {
  const db = new DatabaseSync(path);
  try {
    return db
      .prepare(
        `SELECT level, block, provider, unit, micros, estimated_micros, tasks, unknown_tasks
         FROM ledger_sums WHERE tasks <> 0 OR micros <> 0 ORDER BY level, block, provider, unit`,
      )
      .all()
      .map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}

describe('a library written by the version before', () => {
  // The version before: every migration up to this one's.
  const before = HISTORY_MIGRATIONS.slice(0, HISTORY_MIGRATIONS.indexOf(leaveNeverAcceptedV21));

  it('counts its refused requests no more after the migration, as this version would', async () => {
    const older = HistoryStore.open(history.file, { migrations: before });
    library(older, book(older));
    expect(older.costs.ledgerSize()).toBe(3);
    older.close();

    const store = HistoryStore.open(history.file);
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(await figures(book(store))).toEqual(AFTER_REFUSAL);
    store.close();

    const fresh = join(history.dir, 'fresh.sqlite');
    const now = HistoryStore.open(fresh);
    library(now, book(now));
    now.close();
    expect(sumsOf(history.file)).toEqual(sumsOf(fresh));
  });

  it('is refused by the version before once migrated, unchanged', () => {
    const older = HistoryStore.open(history.file, { migrations: before });
    library(older, book(older));
    older.close();
    HistoryStore.open(history.file).close();
    const bytes = readFileSync(history.file);
    expect(() => HistoryStore.open(history.file, { migrations: before })).toThrow(HistoryError);
    expect(readFileSync(history.file).equals(bytes)).toBe(true);
    const store = HistoryStore.open(history.file);
    expect(store.costs.ledgerSize()).toBe(2);
    store.close();
  });
});
