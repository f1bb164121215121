/**
 * The Costs screen lists in the gallery's order (electron/core/history/ledger-pages.ts, schema v20:
 * ledger-listed-schema.ts): a task made while the clock stood behind lists above the newest
 * (`listedAt`, engine/list-place.ts) in the gallery, and in Costs too, not below by its date made;
 * a crafted import that lists below its date likewise. The dates a query names stay the task's
 * date made. Every range over the boundary values, every service, newest first a page at a time by
 * cursor, oldest first (the CSV's pages) and whole (the CLI's): each the gallery's order of the
 * tasks made within the dates. A task written again follows to where it lists, and a library
 * written before the column is filled by the migration (a task removed from the history by then
 * lists by its date made: its stand-in).
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { placedInList } from '../../../../electron/core/engine/list-place';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import {
  HISTORY_MIGRATIONS,
  LEDGER_LISTED_VERSION,
} from '../../../../electron/core/history/history-schema';
import type { LedgerQuery } from '../../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../../shared/domain/providers';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { historyStorePerTest, makeImage, makeRecord } from './history-fixtures';

const history = historyStorePerTest();

const COST = { source: 'reported', micros: 10_000, unit: 'USD', field: 'usage.cost' } as const;

function made(localId: string, createdAt: number, provider: ProviderId): TaskRecord {
  return makeRecord({ localId, createdAt, provider, images: [makeImage(0)], cost: COST });
}

/**
 * The library as a user's clock makes it: a and b on a right clock, then the clock set back (c
 * made at 500 lists just above b), set forward again (e at 4_000), and a crafted import (d, made
 * at 5_000, listed at 2_000).
 */
function library(): TaskRecord[] {
  const a = made('a', 1_000, 'pictor');
  const b = made('b', 3_000, 'bfl');
  const [c] = placedInList([made('c', 500, 'pictor')], 3_000);
  const e = made('e', 4_000, 'bfl');
  const d = { ...made('d', 5_000, 'pictor'), listedAt: 2_000 };
  return [a, b, c!, e, d];
}

/** The newest first by list time: the gallery's order. */
const LISTED = ['e', 'c', 'b', 'd', 'a'];
const EDGES = [0, 499, 500, 501, 999, 1_000, 2_000, 2_999, 3_000, 3_001, 4_000, 5_000, 5_001];

beforeEach(() => {
  history.store.putMany(library());
});

const ids = (items: readonly { localId: string }[]) => items.map((item) => item.localId);

/** The tasks of `query` in the gallery's order: made within its dates, of its service. */
function want(query: LedgerQuery): string[] {
  const records = new Map(library().map((record) => [record.localId, record]));
  return LISTED.filter((id) => {
    const record = records.get(id)!;
    return (
      record.createdAt >= (query.since ?? 0) &&
      (query.until === undefined || record.createdAt < query.until) &&
      (query.provider === undefined || record.provider === query.provider)
    );
  });
}

/** Every page of `query`, newest first, `limit` a page, by cursor. */
function pagedNewest(query: LedgerQuery, limit: number): string[] {
  const found: string[] = [];
  let page = history.store.costs.newest(query, limit);
  found.push(...ids(page.entries));
  for (let n = 0; page.next !== null && n < 10; n += 1) {
    page = history.store.costs.newest(query, limit, page.next);
    found.push(...ids(page.entries));
  }
  return found;
}

function pagedOldest(query: LedgerQuery): string[] {
  const found: string[] = [];
  let page = history.store.costs.oldest(query, 1);
  found.push(...ids(page.entries));
  for (let n = 0; page.next !== null && n < 10; n += 1) {
    page = history.store.costs.oldest(query, 1, page.next);
    found.push(...ids(page.entries));
  }
  return found;
}

function checkQuery(query: LedgerQuery): void {
  const label = JSON.stringify(query);
  const expected = want(query);
  expect(ids(history.store.costs.newest(query, 50).entries), label).toEqual(expected);
  expect(pagedNewest(query, 1), label).toEqual(expected);
  expect(pagedNewest(query, 2), label).toEqual(expected);
  expect(pagedOldest(query), label).toEqual([...expected].reverse());
  expect(ids(history.store.costs.entries(query)), label).toEqual([...expected].reverse());
}

function checkEveryRange(): void {
  for (const provider of [undefined, 'pictor', 'bfl'] as const) {
    const service = provider === undefined ? {} : { provider };
    checkQuery(service);
    for (const since of EDGES) {
      checkQuery({ ...service, since });
      checkQuery({ ...service, until: since });
      for (const until of EDGES) checkQuery({ ...service, since, until });
    }
  }
}

describe('the Costs list’s order', () => {
  it('is the gallery’s: a task made while the clock stood behind lists above', () => {
    expect(ids(history.store.list().items)).toEqual(LISTED);
    expect(ids(history.store.costs.newest({}, 50).entries)).toEqual(LISTED);
  });

  it('every range of dates made and every service, a page at a time, in both orders', () => {
    checkEveryRange();
  });

  it('follows a task written again to where it lists, and the ledger’s version moves', () => {
    const [c] = history.store.getMany(['c']);
    const { listedAt: _listed, ...plain } = c!;
    const before = history.store.costs.version();
    history.store.put(plain);
    expect(ids(history.store.costs.newest({}, 50).entries)).toEqual(['e', 'b', 'd', 'a', 'c']);
    expect(history.store.costs.version()).toBeGreaterThan(before!);
    history.store.put({ ...plain, listedAt: 4_500 });
    expect(ids(history.store.costs.newest({}, 50).entries)).toEqual(
      ids(history.store.list().items),
    );
    expect(ids(history.store.costs.newest({}, 50).entries)).toEqual(['c', 'e', 'b', 'd', 'a']);
  });
});

describe('a library written before the ledger’s list time', () => {
  it('is listed in the gallery’s order after the migration, every range', () => {
    history.store.close();
    const file = join(history.dir, 'older.sqlite');
    const older = HistoryStore.open(file, {
      migrations: HISTORY_MIGRATIONS.slice(0, LEDGER_LISTED_VERSION - 1),
    });
    older.putMany(library());
    older.close();
    history.reopen(file);
    expect(history.store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(ids(history.store.costs.newest({}, 50).entries)).toEqual(LISTED);
    checkEveryRange();
  });

  it('lists a task removed from the history by then by its date made (its stand-in)', () => {
    history.store.close();
    const file = join(history.dir, 'older.sqlite');
    const older = HistoryStore.open(file, {
      migrations: HISTORY_MIGRATIONS.slice(0, LEDGER_LISTED_VERSION - 1),
    });
    older.putMany(library());
    older.delete('c');
    older.close();
    history.reopen(file);
    expect(ids(history.store.costs.newest({}, 50).entries)).toEqual(['e', 'b', 'd', 'a', 'c']);
  });
});
