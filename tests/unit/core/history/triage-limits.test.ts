/**
 * The library's limits on triage where every record is written (history/triage-limits.ts): a
 * write whose records would pass 10,000 different tags or 10,000 boards keeps what fits, leaves
 * the rest out of the records it stores and says how many; what the library has already is always
 * kept; a board moved at the limit keeps its images; the count of tags is the rows' own.
 */
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { Boards } from '../../../../electron/core/triage/boards';
import type { Logger } from '../../../../electron/ports/logger';
import { MAX_BOARDS, MAX_TAGS_PER_LIBRARY } from '../../../../shared/domain/triage';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeImage, makeTask } from '../../../support/task-records';
import { historyStorePerTest } from './history-fixtures';

const warnings: Array<{ message: string; fields: unknown }> = [];

const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message, fields) => void warnings.push({ message, fields }),
  error: () => undefined,
};
const history = historyStorePerTest({ logger });

beforeEach(() => {
  warnings.length = 0;
});

/** Tasks of one image each, the image carrying `perImage` of `names` in turn, in `field`. */
function tasksNaming(
  field: 'tags' | 'boards',
  names: readonly string[],
  perImage: number,
  prefix = 't',
): TaskRecord[] {
  const tasks: TaskRecord[] = [];
  for (let start = 0; start < names.length; start += perImage) {
    const n = tasks.length;
    tasks.push(
      makeTask({
        localId: `${prefix}-${String(n).padStart(5, '0')}`,
        createdAt: 1_700_000_000_000 + n,
        prompt: `prompt ${String(n)}`,
        images: [makeImage(0, { rating: 3, [field]: names.slice(start, start + perImage) })],
      }),
    );
  }
  return tasks;
}

const numbered = (word: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, n) => `${word} ${String(from + n)}`);

/** What the history's own rows hold, read with a second connection. */
function rows(): { tags: number; boards: number; tagRows: number; boardRows: number } {
  const db = new DatabaseSync(history.file, { readOnly: true });
  try {
    const n = (sql: string) => Number(db.prepare(sql).get()?.['n']);
    return {
      tags: n('SELECT count(DISTINCT tag_key) AS n FROM image_tags'),
      boards: n('SELECT count(*) AS n FROM boards'),
      tagRows: n('SELECT count(*) AS n FROM image_tags'),
      boardRows: n('SELECT count(*) AS n FROM image_boards'),
    };
  } finally {
    db.close();
  }
}

const storedLists = (field: 'tags' | 'boards') =>
  history.store
    .list({ limit: 1_000 })
    .items.flatMap((record) => record.images.flatMap((image) => image[field] ?? []));

describe('the library’s limit of different tags', () => {
  it('keeps the first 10,000 a write names, leaves out the rest and says how many', () => {
    const tasks = tasksNaming('tags', numbered('tag', MAX_TAGS_PER_LIBRARY + 60), 64);
    expect(history.store.putManyCounted(tasks)).toEqual({ tags: 60, boards: 0 });
    expect(rows()).toMatchObject({ tags: MAX_TAGS_PER_LIBRARY, tagRows: MAX_TAGS_PER_LIBRARY });
    expect(storedLists('tags')).toHaveLength(MAX_TAGS_PER_LIBRARY);
    expect(history.store.triage.tagCount()).toBe(MAX_TAGS_PER_LIBRARY);
    // Nothing else of any record is lost: every task, every image and its rating.
    expect(history.store.count()).toBe(tasks.length);
    const last = history.store.get(tasks.at(-1)!.localId)!;
    expect(last.images[0]).toMatchObject({ rating: 3, state: 'saved' });
    expect(last.images[0]!.tags).toBeUndefined();
    expect(warnings).toEqual([
      {
        message: "tags or boards past the library's limits were left out",
        fields: { tags: 60, boards: 0 },
      },
    ]);
  });

  it('still takes a tag the library has (in any case), and a record keeps its own tags', () => {
    history.store.putMany(tasksNaming('tags', numbered('tag', MAX_TAGS_PER_LIBRARY), 64));
    const full = makeTask({
      localId: 'late',
      images: [makeImage(0, { tags: ['TAG 7', 'brand new', 'tag 9999'] })],
    });
    expect(history.store.putManyCounted([full])).toEqual({ tags: 1, boards: 0 });
    expect(history.store.get('late')!.images[0]!.tags).toEqual(['TAG 7', 'tag 9999']);
    // Every write keeps the limit, not only the counted ones.
    history.store.put(
      makeTask({ localId: 'later', images: [makeImage(0, { tags: ['another'] })] }),
    );
    expect(history.store.get('later')!.images[0]!.tags).toBeUndefined();
    // The only image with "tag 0" is written again: its tag is the library's already.
    const first = history.store.get('t-00000')!;
    expect(history.store.putManyCounted([{ ...first, updatedAt: first.updatedAt + 1 }])).toEqual({
      tags: 0,
      boards: 0,
    });
    expect(history.store.get('t-00000')!.images[0]!.tags).toHaveLength(64);
    expect(rows().tags).toBe(MAX_TAGS_PER_LIBRARY);
  });

  it('counts the different tags by their rows, none to many', () => {
    expect(history.store.triage.tagCount()).toBe(0);
    history.store.putMany(tasksNaming('tags', ['a', 'B', 'b', 'c', 'A', 'd'], 2));
    expect(history.store.triage.tagCount()).toBe(rows().tags);
    expect(history.store.triage.tagCount()).toBe(4);
  });
});

describe('the library’s limit of boards', () => {
  it('keeps the boards that fit, a parent counted with its child, and says how many were left out', () => {
    const tasks = tasksNaming('boards', numbered('board', MAX_BOARDS - 2), 250);
    expect(history.store.putManyCounted(tasks)).toEqual({ tags: 0, boards: 0 });
    // "Two/Deep" needs two boards: it is the last that fits; "Three/Deep" then does not.
    const late = makeTask({
      localId: 'late',
      images: [
        makeImage(0, { boards: ['Two/Deep', 'Three/Deep', 'board 5', 'Two'] }),
        makeImage(1, { boards: ['Other'] }),
      ],
    });
    expect(history.store.putManyCounted([late])).toEqual({ tags: 0, boards: 2 });
    expect(history.store.get('late')!.images.map((image) => image.boards)).toEqual([
      ['Two/Deep', 'board 5', 'Two'],
      undefined,
    ]);
    expect(rows()).toMatchObject({ boards: MAX_BOARDS, boardRows: MAX_BOARDS - 2 + 3 });
    expect(history.store.get('late')!.images[1]).toMatchObject({ state: 'saved', index: 1 });
  });

  it('a board moved or renamed at the limit keeps its images', () => {
    history.store.putMany(tasksNaming('boards', numbered('board', MAX_BOARDS), 250));
    const boards = new Boards({
      engine: history.store,
      triage: history.store.triage,
      now: () => 1,
    });
    const moved = boards.moveTo('board 0', 'Renamed');
    expect(moved.tasks).toBe(1);
    expect(history.store.get('t-00000')!.images[0]!.boards?.[0]).toBe('Renamed');
    expect(history.store.triage.boardPath('renamed')).toBe('Renamed');
    expect(history.store.triage.boardPath('board 0')).toBeNull();
    expect(rows()).toMatchObject({ boards: MAX_BOARDS, boardRows: MAX_BOARDS });
    expect(warnings).toEqual([]);
  });
});
