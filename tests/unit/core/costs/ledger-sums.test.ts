/**
 * The Costs screen's totals come from SQL aggregates (history schema v9: sums per block of
 * quarter hours, kept by triggers), and must be the figures a sum over every task gives: the
 * same per unit, local day, local month and service, in zones on and off the hour, across a
 * month's end that is a clock change, for any period and service, after costs changed, tasks
 * were removed and watched removed tasks were billed. Its entries come a page at a time.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { blocksOf } from '../../../../electron/core/history/ledger-sums';
import type { HistoryOps } from '../../../../electron/core/history/history-worker-protocol';
import { runHistoryOp } from '../../../../electron/core/history/history-worker-ops';
import type { LedgerQuery } from '../../../../shared/domain/cost-ledger';
import { makeImage, makeRecord } from '../history/history-fixtures';
import { FIXTURE_FROM, FIXTURE_TO, writeLedgerFixture } from './ledger-fixture';
import { rowByRowTotals } from './ledger-oracle';
import { removeFolderSync, tempFolderSync } from '../../../support/temp-folders';

const ZONES = [
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Adelaide',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Europe/Berlin',
  'UTC',
];

const QUERIES: LedgerQuery[] = [
  {},
  { since: Date.parse('2026-11-01T04:00:00Z') },
  // Mid-quarter edges: the parts off the grid are summed from the tasks themselves.
  { since: Date.parse('2026-10-27T10:07:13.123Z'), until: Date.parse('2026-11-03T01:52:01.5Z') },
  { provider: 'fal' },
  { provider: 'bfl', since: Date.parse('2026-10-31T00:00:00Z') },
  { until: Date.parse('2026-10-25T01:00:00Z') },
];

let store: HistoryStore;
beforeEach(() => {
  store = HistoryStore.open(':memory:');
});
afterEach(() => store.close());

/** Tasks a millisecond either side of every bound of {@link QUERIES}, in the same quarter hour. */
function writeEdgeTasks(): void {
  const bounds = QUERIES.flatMap((query) => [query.since, query.until]).filter(
    (bound): bound is number => bound !== undefined,
  );
  store.putMany(
    bounds.flatMap((bound) =>
      [bound - 1, bound].map((at) =>
        makeRecord({
          localId: `edge-${at}`,
          provider: 'bfl',
          createdAt: at,
          cost: { source: 'reported', micros: 3_333, unit: 'USD', field: 'usage.cost' },
        }),
      ),
    ),
  );
}

function book(timeZone: string): CostBook {
  return new CostBook({ history: store, now: () => FIXTURE_TO, timeZone });
}

/** {@link book} reading the screen's sums through the history worker's operation. */
function offThread(timeZone: string): CostBook {
  const sums = (read: HistoryOps['costSums']['args']) =>
    Promise.resolve(runHistoryOp(store, 'costSums', read));
  return new CostBook({ history: store, now: () => FIXTURE_TO, timeZone, sums });
}

describe('the aggregate totals', () => {
  it('equal a sum over every task, in every zone and for every period and service', async () => {
    writeLedgerFixture(store);
    writeEdgeTasks();
    for (const zone of ZONES) {
      const costs = book(zone);
      for (const query of QUERIES) {
        const entries = costs.entries(query);
        expect(entries.length).toBeGreaterThan(0);
        expect({ zone, query, totals: costs.totals(query) }).toEqual({
          zone,
          query,
          totals: rowByRowTotals(entries, zone),
        });
        const screen = await costs.screen(query, 10);
        expect(screen.total).toBe(entries.length);
        // Its sums read as the history worker reads them (history-worker-ops.ts): the same screen.
        const off = offThread(zone);
        expect(await off.screen(query, 10)).toEqual(screen);
      }
    }
  });

  it('count removed tasks, and a watched removed task billed after its removal', () => {
    writeLedgerFixture(store);
    const costs = book('America/New_York');
    const all = costs.entries();
    expect(all.some((entry) => !entry.inHistory)).toBe(true);
    const eur = costs.totals().overall.find((total) => total.unit === 'EUR');
    expect(eur).toEqual({
      unit: 'EUR',
      micros: 55_555 * eur!.tasks,
      estimatedMicros: 0,
      tasks: all.filter((entry) => entry.cost.source === 'reported' && entry.cost.unit === 'EUR')
        .length,
    });
  });

  it('put the New York month’s end on its local days, across the clock change', () => {
    const at = (iso: string, micros: number) =>
      makeRecord({
        localId: `ny-${iso}`,
        createdAt: Date.parse(iso),
        cost: { source: 'reported', micros, unit: 'USD', field: 'usage.cost' },
      });
    store.putMany([
      at('2026-11-01T03:59:59.999Z', 1), // 31 October, 23:59:59.999 EDT
      at('2026-11-01T04:00:00.000Z', 10), // 1 November, midnight
      at('2026-11-01T05:30:00.000Z', 100), // 01:30 EDT
      at('2026-11-01T06:30:00.000Z', 1_000), // 01:30 EST, the hour again
      at('2026-11-02T04:30:00.000Z', 10_000), // 1 November, 23:30 EST
      at('2026-11-02T05:00:00.000Z', 100_000), // 2 November
    ]);
    const totals = book('America/New_York').totals();
    expect(totals.byDay.map((row) => [row.day, row.micros])).toEqual([
      ['2026-10-31', 1],
      ['2026-11-01', 11_110],
      ['2026-11-02', 100_000],
    ]);
    expect(totals.byMonth.map((row) => [row.month, row.micros])).toEqual([
      ['2026-10', 1],
      ['2026-11', 111_110],
    ]);
  });

  it('equal the sum over every task in a zone off the quarter-hour grid (Monrovia, 1971)', () => {
    // Liberia kept UTC−0:44:30 until 1972: its midnights fall inside a quarter hour.
    const from = Date.UTC(1971, 5, 1);
    store.putMany(
      Array.from({ length: 300 }, (_, n) =>
        makeRecord({
          localId: `monrovia-${n}`,
          createdAt: from + n * 4_567_891,
          cost: { source: 'estimated', micros: 1_000 + n, unit: 'USD', basis: 'image' },
        }),
      ),
    );
    const costs = book('Africa/Monrovia');
    expect(costs.totals()).toEqual(rowByRowTotals(costs.entries(), 'Africa/Monrovia'));
    expect(costs.totals().byDay.length).toBeGreaterThan(10);
  });

  it('cover a span of quarter hours with the fewest aligned blocks', () => {
    expect(blocksOf(0, 96, 7)).toEqual([
      [6, 0],
      [5, 2],
    ]);
    expect(blocksOf(0, 2 ** 15 + 3)).toEqual([
      [15, 0],
      [1, 2 ** 14],
      [0, 2 ** 15 + 2],
    ]);
    for (const [from, to] of [
      [3, 101],
      [77, 78],
      [1_000_003, 1_000_099],
    ] as const) {
      const blocks = blocksOf(from, to, 7);
      const covered = blocks.map(([level, block]) => [
        block * 2 ** level,
        (block + 1) * 2 ** level,
      ]);
      expect(covered[0]?.[0]).toBe(from);
      expect(covered.at(-1)?.[1]).toBe(to);
      covered.slice(1).forEach(([start], n) => expect(start).toBe(covered[n]?.[1]));
      expect(blocks.length).toBeLessThanOrEqual(12);
    }
  });
});

describe('an older library', () => {
  it('gets its sums, version and thumbnails when it opens at v9, the same figures', async () => {
    const temp = tempFolderSync('history');
    try {
      const file = join(temp, 'history.sqlite');
      const old = HistoryStore.open(file, { migrations: HISTORY_MIGRATIONS.slice(0, 8) });
      writeLedgerFixture(old, 300);
      old.close();
      const upgraded = HistoryStore.open(file);
      try {
        const costs = new CostBook({
          history: upgraded,
          now: () => FIXTURE_TO,
          timeZone: 'Asia/Kolkata',
        });
        expect(costs.totals()).toEqual(rowByRowTotals(costs.entries(), 'Asia/Kolkata'));
        expect(upgraded.costs.meta()).toEqual({ version: 1, tasks: 300 });
        const shown = (await costs.screen({}, 300)).entries.filter((entry) => entry.inHistory);
        const record = upgraded.get(shown.find((entry) => entry.thumbnail)!.localId)!;
        expect(shown.find((entry) => entry.localId === record.localId)?.thumbnail).toBe(
          record.images[0]?.thumbnail,
        );
      } finally {
        upgraded.close();
      }
    } finally {
      removeFolderSync(temp);
    }
  });
});

describe('the entries, a page at a time', () => {
  it('walk every task of the query once, newest first, while tasks are added', async () => {
    writeLedgerFixture(store);
    const costs = book('UTC');
    const query = { since: FIXTURE_FROM, provider: 'replicate' } as const;
    const expected = costs
      .entries(query)
      .map((entry) => entry.localId)
      .reverse();
    const first = await costs.screen(query, 25);
    const seen = first.entries.map((entry) => entry.localId);
    let next = first.next;
    while (next !== null) {
      // A new task at the top never moves the pages below it.
      store.put(
        makeRecord({
          localId: `late-${seen.length}`,
          provider: 'replicate',
          createdAt: FIXTURE_TO + seen.length,
          cost: { source: 'unknown' },
        }),
      );
      const page = costs.page(query, next, 25);
      seen.push(...page.entries.map((entry) => entry.localId));
      next = page.next;
    }
    expect(seen).toEqual(expected);
  });

  it('show a task by its first saved image while the history lists it', async () => {
    const costs = book('UTC');
    const record = makeRecord({
      localId: 'kite',
      cost: { source: 'estimated', micros: 5, unit: 'USD', basis: 'image' },
      images: [
        {
          index: 0,
          url: 'https://cdn.example.test/0.png',
          state: 'pending',
          attempts: 0,
          favourite: false,
        },
      ],
    });
    store.put(record);
    expect((await costs.screen({}, 5)).entries[0]?.thumbnail).toBeNull();
    store.put({ ...record, images: [makeImage(0, { thumbnail: 'kite.thumb.webp' })] });
    expect((await costs.screen({}, 5)).entries[0]?.thumbnail).toBe('kite.thumb.webp');
    store.delete('kite');
    expect((await costs.screen({}, 5)).entries[0]).toMatchObject({
      inHistory: false,
      thumbnail: null,
    });
  });

  it('export every task of the query as CSV, a page at a time', async () => {
    writeLedgerFixture(store);
    const costs = book('Asia/Kolkata');
    const chunks = [...(await costs.csvChunks({}))];
    expect(chunks.length).toBeGreaterThan(1);
    const lines = chunks.join('').split('\r\n');
    expect(lines.length).toBe(costs.entries().length + 2);
  });
});
