/**
 * A varied ledger for the aggregate totals' tests: tasks of every service at instants off any
 * grid, around a month's end that is also a clock change in New York (2026-11-01) and a week
 * after Europe's, with every source of cost; then costs that arrive late, change unit or are
 * refunded, tasks removed from the history, and removed tasks still watched whose service then
 * reports a cost.
 */
import type { HistoryStore } from '../../../../electron/core/history/history-store';
import type { ProviderId } from '../../../../shared/domain/providers';
import type { CostUnit, TaskCost } from '../../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeImage, makeRecord } from '../history/history-fixtures';

const SERVICES: readonly { provider: ProviderId; unit: CostUnit }[] = [
  { provider: 'pictor', unit: 'USD' },
  { provider: 'fal', unit: 'USD' },
  { provider: 'replicate', unit: 'USD' },
  { provider: 'dashscope', unit: 'CNY' },
  { provider: 'bfl', unit: 'credits' },
];

/** 2026-10-20 to 2026-11-10 (UTC). */
export const FIXTURE_FROM = Date.UTC(2026, 9, 20);
export const FIXTURE_TO = Date.UTC(2026, 10, 10);

/** A small deterministic generator (the same fixture every run). */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function costOf(kind: number, unit: CostUnit, micros: number): TaskCost {
  switch (kind) {
    case 0:
    case 1:
      return { source: 'estimated', micros, unit, basis: 'image' };
    case 2:
      return { source: 'reported', micros, unit, field: 'usage.cost' };
    case 3:
      return { source: 'unknown' };
    case 4:
      return { source: 'not_billed' };
    default:
      return { source: 'free' };
  }
}

/** Instants the totals must put on the right day: local midnights of the zones tested, ±1 ms. */
const EDGES = [
  Date.parse('2026-11-01T04:00:00Z'), // New York's midnight, 1 November (EDT)
  Date.parse('2026-11-02T05:00:00Z'), // and the next, after its clocks went back (EST)
  Date.parse('2026-10-31T18:30:00Z'), // Kolkata's midnight, 1 November
  Date.parse('2026-10-31T13:30:00Z'), // Adelaide's (ACDT, +10:30)
  Date.parse('2026-10-31T18:15:00Z'), // Kathmandu's (+5:45)
  Date.parse('2026-10-31T23:00:00Z'), // Berlin's (CET)
];

function fixtureRecords(count: number): TaskRecord[] {
  const random = randomFrom(44);
  const at = (n: number): number => {
    const edge = EDGES[n % 40];
    if (edge !== undefined) return edge + ((n >> 3) % 3) - 1;
    return FIXTURE_FROM + Math.floor(random() * (FIXTURE_TO - FIXTURE_FROM));
  };
  return Array.from({ length: count }, (_, n) => {
    const { provider, unit } = SERVICES[n % SERVICES.length]!;
    const micros = 1_000 + Math.floor(random() * 90_000);
    return makeRecord({
      localId: `fixture-${String(n).padStart(4, '0')}`,
      provider,
      createdAt: at(n),
      cost: costOf(Math.floor(random() * 7), unit, micros),
      images: n % 3 === 0 ? [] : [makeImage(0, { thumbnail: `thumbs/${n}.webp` })],
    });
  });
}

/**
 * Writes the fixture's tasks to `store`, then changes some: late reports, a unit changed, a
 * refund, removals, watched removed tasks billed after all. Returns how many tasks it wrote.
 */
export function writeLedgerFixture(store: HistoryStore, count = 600): number {
  const records = fixtureRecords(count);
  store.putMany(records);
  records.forEach((record, n) => {
    const { cost } = record;
    if (n % 11 === 0 && cost?.source === 'estimated') {
      // The service reported what it cost after all, in another amount.
      store.put({ ...record, cost: { ...cost, source: 'reported', field: 'x-cost', micros: 7 } });
    } else if (n % 13 === 0 && cost?.source === 'reported') {
      store.put({ ...record, cost: { source: 'not_billed' } });
    } else if (n % 17 === 0 && cost !== undefined && 'unit' in cost) {
      store.put({ ...record, cost: { ...cost, unit: 'credits' } });
    }
    if (n % 7 === 0) store.delete(record.localId);
    if (n % 19 === 0) {
      const running = { ...record, status: 'processing' as const };
      store.put(running);
      store.detach(running);
      store.putWatched({
        ...running,
        status: 'completed',
        cost: { source: 'reported', micros: 55_555, unit: 'EUR', field: 'usage.cost' },
      });
    }
  });
  return count;
}
