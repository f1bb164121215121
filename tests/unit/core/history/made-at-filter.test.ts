/**
 * The gallery's date filter asks a task's date, not its place in the list (electron/core/history/
 * made-at.ts). A task made while the clock stood behind lists above the newest (`listedAt`), and a
 * crafted import may list below its date: the order column then holds no date of the task. Every
 * range over the boundary values of a small library, both bounds, one or none, is checked against
 * the records' own dates through every way of asking (pages in each order, a page at a time by
 * cursor, the count, the whole set, a smart board's date rule); newest first stays by list time.
 * A library written before the column (schema v17, whose order column already held `listedAt`)
 * is filled from its records by the migration.
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import {
  HISTORY_MIGRATIONS,
  MADE_AT_VERSION,
} from '../../../../electron/core/history/history-schema';
import type { ImageQuery } from '../../../../electron/core/history/history-query';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import type { SmartRules } from '../../../../shared/domain/smart-board';
import { historyStorePerTest, makeImage, makeRecord } from './history-fixtures';

const history = historyStorePerTest();

/** [local id, createdAt, listedAt]: the newest first by list time is e, c, b, d, a. */
const TASKS: readonly [string, number, number | undefined][] = [
  ['a', 1_000, undefined],
  ['b', 3_000, undefined],
  // Made while the clock stood behind a and b: listed just above b.
  ['c', 500, 3_001],
  // A crafted import: listed below its date.
  ['d', 5_000, 2_000],
  ['e', 4_000, undefined],
];
const LISTED = ['e', 'c', 'b', 'd', 'a'];
const EDGES = [0, 499, 500, 501, 999, 1_000, 2_000, 2_999, 3_000, 3_001, 4_000, 5_000, 5_001];

function record([localId, createdAt, listedAt]: (typeof TASKS)[number]): TaskRecord {
  const made = makeRecord({ localId, createdAt, images: [makeImage(0)] });
  return listedAt === undefined ? made : { ...made, listedAt };
}

beforeEach(() => {
  history.store.putMany(TASKS.map(record));
});

/** The tasks made from `from` to `to`, in list order: what every way of asking must find. */
function madeWithin(from: number | undefined, to: number | undefined): string[] {
  const at = new Map(TASKS.map(([id, createdAt]) => [id, createdAt]));
  return LISTED.filter((id) => {
    const made = at.get(id)!;
    return (from === undefined || made >= from) && (to === undefined || made <= to);
  });
}

const ids = (items: readonly { localId: string }[]) => items.map((item) => item.localId);

/** Every page of `query`, one image at a time, by cursor. */
function paged(query: ImageQuery): string[] {
  const found: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10; page += 1) {
    const next = history.store.listImages({ ...query, limit: 1, cursor });
    found.push(...ids(next.items));
    cursor = next.nextCursor;
    if (cursor === null) break;
  }
  return found;
}

function checkRange(from: number | undefined, to: number | undefined): void {
  const range = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
  const want = madeWithin(from, to);
  const label = `from ${String(from)} to ${String(to)}`;
  expect(ids(history.store.listImages(range).items), label).toEqual(want);
  expect(ids(history.store.listImages({ ...range, sort: 'oldest' }).items), label).toEqual(
    [...want].reverse(),
  );
  expect(ids(history.store.listImages({ ...range, sort: 'prompt' }).items).sort(), label).toEqual(
    [...want].sort(),
  );
  expect(paged(range), label).toEqual(want);
  expect(history.store.countImages(range), label).toBe(want.length);
  expect(ids(history.store.imageKeys(range, 100)).sort(), label).toEqual([...want].sort());
  const smart: SmartRules = { match: 'all', items: [{ kind: 'date', ...range }] };
  expect(ids(history.store.listImages({ smart }).items), label).toEqual(want);
}

describe('the date filter reads the task’s date', () => {
  it('lists newest first by list time, unfiltered', () => {
    expect(ids(history.store.listImages().items)).toEqual(LISTED);
    expect(ids(history.store.list().items)).toEqual(LISTED);
  });

  it('every range over the boundary values, both bounds, one or none', () => {
    checkRange(undefined, undefined);
    for (const from of EDGES) {
      checkRange(from, undefined);
      checkRange(undefined, from);
      for (const to of EDGES) checkRange(from, to);
    }
  });

  it('follows a task written again: listed where made, then apart again', () => {
    const [c] = history.store.getMany(['c']);
    const { listedAt: _listed, ...plain } = c!;
    history.store.put(plain);
    expect(ids(history.store.listImages({ from: 400, to: 600 }).items)).toEqual(['c']);
    expect(ids(history.store.listImages({ from: 3_001, to: 3_001 }).items)).toEqual([]);
    history.store.put({ ...plain, listedAt: 4_500 });
    expect(ids(history.store.listImages().items)).toEqual(['c', 'e', 'b', 'd', 'a']);
    expect(ids(history.store.listImages({ from: 4_500, to: 4_500 }).items)).toEqual([]);
    expect(ids(history.store.listImages({ to: 600 }).items)).toEqual(['c']);
  });
});

describe('a library written before the task’s date had its column', () => {
  it('is read by the date after the migration, every range', () => {
    history.store.close();
    const file = join(history.dir, 'older.sqlite');
    const older = HistoryStore.open(file, {
      migrations: HISTORY_MIGRATIONS.slice(0, MADE_AT_VERSION - 1),
    });
    older.putMany(TASKS.map(record));
    older.close();
    history.reopen(file);
    expect(history.store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(ids(history.store.listImages().items)).toEqual(LISTED);
    for (const from of EDGES) for (const to of EDGES) checkRange(from, to);
  });
});
