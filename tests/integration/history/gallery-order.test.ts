/**
 * The gallery's orders (newest, oldest, prompt) and its pages by position, on a real SQLite file:
 * every page, walked by cursor or jumped to by offset, must equal a sort of every image in
 * JavaScript, with filters and searches of both plans (few matches read and sorted, many walked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { GallerySort } from '../../../shared/domain/gallery-item';
import { VISIBLE_STATES, type TaskRecord } from '../../../shared/domain/task-record';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { ImageQuery } from '../../../electron/core/history/history-query';
import { HistoryError } from '../../../electron/core/history/history-error';
import { makeImage, makeRecord } from '../../unit/core/history/history-fixtures';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const TASKS = 2_600;
const WORDS = ['Harbour', 'kite', 'storm', 'lighthouse', 'apple', 'Zebra', 'écluse', 'ÉTÉ'];
let store: HistoryStore;
let records: TaskRecord[];
const folder = tempFolderSync('history');

/** Prompts that collide (same prompt, other case), dates that collide, 1–3 images, some deleted. */
function record(n: number): TaskRecord {
  const word = WORDS[(n * 5) % WORDS.length]!;
  const prompt = `${n % 3 === 0 ? word.toUpperCase() : word} ${n % 7 === 0 ? 'rare kite' : 'boat'} ${n % 11}`;
  return makeRecord({
    localId: `local-${String((n * 7919) % 10_007).padStart(5, '0')}`,
    createdAt: 1_000_000 + Math.floor(n / 3) * 1_000,
    request: { prompt, model: n % 2 === 0 ? 'model-a' : 'model-b' },
    images: Array.from({ length: 1 + (n % 3) }, (_, index) =>
      makeImage(index, {
        favourite: (n + index) % 9 === 0,
        ...(n % 13 === 0 && index === 0 ? { state: 'deleted' as const } : {}),
      }),
    ),
  });
}

/** SQLite's NOCASE: ASCII letters only. */
const nocase = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** The answer by brute force over every record. */
function expected(query: ImageQuery, sort: GallerySort): string[] {
  const words = (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const rows = records.flatMap((r) =>
    r.images
      .filter((image) => image.state !== 'deleted')
      .filter((image) => query.favourite === undefined || image.favourite === query.favourite)
      .map((image) => ({ r, idx: image.index })),
  );
  const kept = rows
    .filter(({ r }) => words.every((word) => r.request.prompt.toLowerCase().includes(word)))
    .filter(({ r }) => query.model === undefined || r.request.model === query.model);
  const newest = (a: (typeof kept)[number], b: (typeof kept)[number]) =>
    b.r.createdAt - a.r.createdAt || -compare(a.r.localId, b.r.localId) || a.idx - b.idx;
  kept.sort((a, b) => {
    if (sort === 'oldest') return -newest(a, b);
    if (sort === 'prompt')
      return compare(nocase(a.r.request.prompt), nocase(b.r.request.prompt)) || newest(a, b);
    return newest(a, b);
  });
  return kept.map(({ r, idx }) => `${r.localId}/${idx}`);
}

const keys = (page: { items: { localId: string; index: number }[] }) =>
  page.items.map((item) => `${item.localId}/${item.index}`);

/** Every page by cursor, in order. */
function walk(query: ImageQuery, limit: number): string[] {
  const all: string[] = [];
  let cursor: string | null = null;
  do {
    const page = store.listImages({ ...query, states: [...VISIBLE_STATES], limit, cursor });
    all.push(...keys(page));
    cursor = page.nextCursor;
  } while (cursor !== null && all.length <= TASKS * 3);
  return all;
}

beforeAll(() => {
  store = HistoryStore.open(join(folder, 'history.sqlite'));
  records = Array.from({ length: TASKS }, (_, n) => record(n));
  store.putMany(records);
});
afterAll(() => {
  store.close();
  removeFolderSync(folder);
});

const QUERIES: ImageQuery[] = [
  {},
  { favourite: true },
  { model: 'model-b' },
  // Many matches (walked) and few (read and sorted); a short word checked row by row.
  { search: 'boat' },
  { search: 'rare kite' },
  { search: 'zebra 5' },
];

describe('gallery orders against a sort of everything', () => {
  for (const sort of ['newest', 'oldest', 'prompt'] as const) {
    for (const query of QUERIES) {
      it(`${sort} ${JSON.stringify(query)}: every page by cursor`, () => {
        const want = expected(query, sort);
        expect(want.length).toBeGreaterThan(10);
        expect(walk({ ...query, sort }, 97)).toEqual(want);
      });

      it(`${sort} ${JSON.stringify(query)}: pages by position, then by cursor from there`, () => {
        const want = expected(query, sort);
        for (const offset of [0, 1, Math.floor(want.length / 2), want.length - 3]) {
          const page = store.listImages({
            ...query,
            sort,
            states: [...VISIBLE_STATES],
            offset,
            limit: 40,
          });
          expect(keys(page)).toEqual(want.slice(offset, offset + 40));
          if (page.nextCursor !== null) {
            const next = store.listImages({
              ...query,
              sort,
              states: [...VISIBLE_STATES],
              cursor: page.nextCursor,
              limit: 40,
            });
            expect(keys(next)).toEqual(want.slice(offset + 40, offset + 80));
          }
        }
        expect(
          store.listImages({ ...query, sort, states: [...VISIBLE_STATES], offset: want.length })
            .items,
        ).toEqual([]);
      });
    }
  }

  it('counts what every page together holds', () => {
    for (const query of QUERIES) {
      expect(store.countImages({ ...query, states: [...VISIBLE_STATES] })).toBe(
        expected(query, 'newest').length,
      );
    }
  });

  it('refuses a cursor made in another order', () => {
    const page = store.listImages({ sort: 'oldest', states: [...VISIBLE_STATES], limit: 5 });
    expect(page.nextCursor).not.toBeNull();
    expect(() =>
      store.listImages({ sort: 'prompt', states: [...VISIBLE_STATES], cursor: page.nextCursor }),
    ).toThrow(HistoryError);
  });

  it('orders by prompt through its index, with no sort of every image', () => {
    // The plan SQLite picks for the prompt order's page at a position.
    const db = (store as unknown as { connection: { all(sql: string, p: unknown[]): unknown[] } })
      .connection;
    const plan = db
      .all(
        `EXPLAIN QUERY PLAN SELECT t.local_id, i.idx FROM tasks t INDEXED BY tasks_prompt
         CROSS JOIN images i ON i.local_id = t.local_id
         ORDER BY t.prompt COLLATE NOCASE ASC, t.created_at DESC, t.local_id DESC, i.idx ASC LIMIT 10 OFFSET 100`,
        [],
      )
      .map((row) => String((row as { detail: string }).detail));
    expect(plan.join('\n')).toContain('tasks_prompt');
    expect(plan.join('\n')).not.toContain('TEMP B-TREE');
  });
});
