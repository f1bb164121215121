/**
 * A search first tries the newest 2,000 rows and keeps that answer only when it is provably the
 * whole answer. Every page must equal the answer of a plain scan over all records, including
 * when an old row carries a newer date than the newest rows (it sorts first and must not be
 * missed), and across cursor pages and other filters.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord, TaskStatus } from '../../../../shared/domain/task-record';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { HistoryQuery } from '../../../../electron/core/history/history-query';
import { makeRecord } from './history-fixtures';
import { removeFolderSync, tempFolderSync } from '../../../support/temp-folders';

const COUNT = 3_000;
const STATUSES: TaskStatus[] = ['completed', 'failed', 'processing'];
let store: HistoryStore;
let records: TaskRecord[];

/** Every record says "harbour"; one in 40 also says "rare kite"; dates follow insertion. */
function record(n: number, createdAt = 1_000_000 + n * 1_000): TaskRecord {
  const kite = n % 40 === 0 ? ' rare kite' : '';
  return makeRecord({
    localId: `local-${String(n).padStart(5, '0')}`,
    createdAt,
    status: STATUSES[n % 3]!,
    request: { prompt: `harbour at dusk ${n}${kite}` },
  });
}

/** The answer by brute force: every word in the prompt, sorted newest first. */
function expected(query: HistoryQuery): string[] {
  const words = (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return records
    .filter((r) => words.every((word) => r.request.prompt.toLowerCase().includes(word)))
    .filter((r) => !query.statuses || query.statuses.includes(r.status))
    .sort((a, b) => b.createdAt - a.createdAt || (a.localId < b.localId ? 1 : -1))
    .map((r) => r.localId);
}

/** Every page of the store's answer, in order. */
function allPages(query: HistoryQuery): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = store.list({ ...query, limit: 50, cursor });
    ids.push(...page.items.map((r) => r.localId));
    cursor = page.nextCursor;
  } while (cursor !== null && ids.length <= COUNT);
  return ids;
}

/**
 * The 3,000 records are written once, into a database file each test starts from a copy of:
 * a copy is a file's bytes, where writing them again (with their search index) was most of each
 * test's time.
 */
const written = Array.from({ length: COUNT }, (_, n) => record(n));
let folder: string;
let template = '';
let copies = 0;

beforeAll(() => {
  folder = tempFolderSync('history');
  template = join(folder, 'template.sqlite');
  const once = HistoryStore.open(template);
  once.putMany(written);
  once.close();
});
afterAll(() => removeFolderSync(folder));

beforeEach(() => {
  copies += 1;
  const file = join(folder, `history-${copies}.sqlite`);
  copyFileSync(template, file);
  store = HistoryStore.open(file);
  records = [...written];
});
afterEach(() => store.close());

describe('search of the newest rows first', () => {
  it('gives the same first page and the same pages as a scan of everything', () => {
    for (const query of [
      { search: 'harbour' },
      { search: 'HARBOUR AT' },
      { search: 'rare kite' },
      { search: 'harbour', statuses: ['failed' as const] },
      { search: 'dusk 29' },
    ]) {
      expect(store.list({ ...query, limit: 50 }).items.map((r) => r.localId)).toEqual(
        expected(query).slice(0, 50),
      );
      expect(allPages(query)).toEqual(expected(query));
    }
  });

  it('does not miss an old row that was given the newest date', () => {
    // Row 5 (far outside the newest 2,000) now sorts first; so does row 900 for the next page.
    records[5] = record(5, 9_000_000_000);
    records[900] = record(900, 1_000_000 + 2_990_500);
    store.putMany([records[5]!, records[900]!]);
    const first = store.list({ search: 'harbour', limit: 50 });
    expect(first.items[0]?.localId).toBe('local-00005');
    expect(first.items.map((r) => r.localId)).toEqual(expected({ search: 'harbour' }).slice(0, 50));
    expect(allPages({ search: 'harbour' })).toEqual(expected({ search: 'harbour' }));
  });

  it('counts a search in the index alone, and with other filters through the tasks', () => {
    expect(store.count({ search: 'harbour' })).toBe(COUNT);
    expect(store.count({ search: 'rare kite' })).toBe(expected({ search: 'rare kite' }).length);
    expect(store.count({ search: 'harbour', statuses: ['failed'] })).toBe(
      expected({ search: 'harbour', statuses: ['failed'] }).length,
    );
    store.delete('local-00040');
    records = records.filter((r) => r.localId !== 'local-00040');
    expect(store.count({ search: 'rare kite' })).toBe(expected({ search: 'rare kite' }).length);
  });
});

describe('searches that match few tasks, or many but none of the newest', () => {
  it('reads and sorts a few matches: pages, filters and cursors as a scan of everything gives', () => {
    records[2_999] = { ...record(2_999), favourite: true };
    records[40] = { ...record(40), favourite: true };
    // A star is the user's edit (a write of the record keeps the stored one: image-rows.ts).
    store.editMany(['local-02999', 'local-00040'], (stored) => ({ ...stored, favourite: true }));
    for (const query of [
      { search: 'rare kite' },
      { search: 'RARE KITE', statuses: ['completed' as const, 'failed' as const] },
      { search: 'dusk 7' },
      { search: 'no such words' },
    ]) {
      expect(allPages(query)).toEqual(expected(query));
    }
    const favourites = store.list({ search: 'harbour', favourite: true }).items;
    expect(favourites.map((r) => r.localId)).toEqual(['local-02999', 'local-00040']);
  });

  it('walks the newest-first order when more tasks match than it reads, none of them new', () => {
    // 2,500 old rows say "old pier"; the newest 2,000 do not, so neither shortcut applies.
    const old = Array.from({ length: 2_500 }, (_, n) =>
      makeRecord({
        localId: `old-${String(n).padStart(5, '0')}`,
        createdAt: 1_000 + n,
        request: { prompt: `old pier ${n}` },
      }),
    );
    store.putMany(old);
    records = [...records, ...old];
    expect(store.list({ search: 'old pier', limit: 50 }).items.map((r) => r.localId)).toEqual(
      expected({ search: 'old pier' }).slice(0, 50),
    );
    expect(allPages({ search: 'old pier' })).toEqual(expected({ search: 'old pier' }));
  });
});

describe('gallery search: the same plans as the task list', () => {
  /** The brute-force answer as images: each record has two, in index order. */
  const expectedImages = (query: HistoryQuery) =>
    expected(query).flatMap((localId) => [`${localId}#0`, `${localId}#1`]);

  function allImagePages(search: string): string[] {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = store.listImages({ search, limit: 50, cursor });
      ids.push(...page.items.map((item) => `${item.localId}#${item.index}`));
      cursor = page.nextCursor;
    } while (cursor !== null && ids.length <= 2 * COUNT + 10_000);
    return ids;
  }

  it('a word in every prompt, a few matches and none: every page as a scan gives', () => {
    for (const search of ['harbour', 'rare kite', 'KITE rare', 'dusk 7', 'no such words']) {
      expect(allImagePages(search), search).toEqual(expectedImages({ search }));
    }
  });

  it('an old task given the newest date is not missed', () => {
    records[5] = record(5, 9_000_000_000);
    store.putMany([records[5]]);
    expect(store.listImages({ search: 'harbour', limit: 4 }).items.map((i) => i.localId)).toEqual([
      'local-00005',
      'local-00005',
      'local-02999',
      'local-02999',
    ]);
    expect(allImagePages('harbour')).toEqual(expectedImages({ search: 'harbour' }));
  });

  it('walks the newest-first order when many old tasks match and none of the newest', () => {
    const old = Array.from({ length: 2_500 }, (_, n) =>
      makeRecord({
        localId: `old-${String(n).padStart(5, '0')}`,
        createdAt: 1_000 + n,
        request: { prompt: `old pier ${n}` },
      }),
    );
    store.putMany(old);
    records = [...records, ...old];
    expect(allImagePages('old pier')).toEqual(expectedImages({ search: 'old pier' }));
  });
});
