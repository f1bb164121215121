/**
 * Triage in its own rows (history v16, triage-rows-schema.ts): a library written by v15 opens
 * with every rating, flag, star, tag, board and time as it had them; a triage edit writes only
 * the triage rows (the record's JSON stays byte for byte); a write of a task's record (the
 * engine's) never carries an old star or rating back over the stored one; and a rating costs at
 * most 1 KB of the history file per image, measured as the real bytes SQLite appended to its
 * write-ahead log (`history.sqlite-wal`, truncated before the edit).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HISTORY_MIGRATIONS,
  TRIAGE_ROWS_VERSION,
} from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { TriagePartArgs } from '../../../../electron/core/history/history-worker-protocol';
import { runHistoryOp } from '../../../../electron/core/history/history-worker-ops';
import { partEdits, writeTriage } from '../../../../electron/core/history/triage-writes';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import {
  type TaskTriageDelta,
  taskTriageDeltaSchema,
} from '../../../../shared/domain/triage-delta';
import { makeImage, makeTask } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

/** An image's triage fields as a delta carries them (its star always). */
function triageOfImage(image: ImageRecord | undefined) {
  const { favourite, rating, flag, tags, boards, triagedAt } = image ?? { favourite: false };
  return Object.fromEntries(
    Object.entries({ favourite, rating, flag, tags, boards, triagedAt }).filter(
      ([, value]) => value !== undefined,
    ),
  );
}

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await tempFolder('triage-rows');
  file = join(dir, 'history.sqlite');
});

afterEach(async () => {
  await removeFolder(dir);
});

/** Tasks with every kind of triage: lists in their order and case, nested boards, times. */
function triaged(): TaskRecord[] {
  return [
    makeTask({
      localId: 'a',
      favourite: true,
      images: [
        makeImage(0, { favourite: true, rating: 4, tags: ['Zeta', 'alpha'], triagedAt: 7 }),
        makeImage(1, { flag: 'reject', boards: ['Clients/Acme', 'Moodboard'], triagedAt: 8 }),
        makeImage(2),
      ],
    }),
    makeTask({ localId: 'b', images: [makeImage(0, { rating: 2, boards: ['clients'] })] }),
  ];
}

/** 250 tasks of 4 images, with prompts as long as users write them (what a rating must not rewrite). */
function longPrompted(): TaskRecord[] {
  const prompt = `A harbour at dusk, ${'soft light over still water, '.repeat(60)}`;
  return Array.from({ length: 250 }, (_, n) =>
    makeTask({
      localId: `t-${String(n).padStart(4, '0')}`,
      prompt,
      images: [0, 1, 2, 3].map((index) => makeImage(index)),
    }),
  );
}

const recordText = (localId: string): unknown =>
  new DatabaseSync(file).prepare('SELECT record FROM tasks WHERE local_id = ?').get(localId)?.[
    'record'
  ];

describe('history v16: triage in its own rows', () => {
  it('opens a library written by v15 with every rating, flag, star, tag, board and time', () => {
    const old = HistoryStore.open(file, {
      migrations: HISTORY_MIGRATIONS.slice(0, TRIAGE_ROWS_VERSION - 1),
    });
    old.putMany(triaged());
    // A triage edit of today's kind, and a board of the table only.
    old.editMany(['b'], (stored) => ({
      ...stored,
      updatedAt: stored.updatedAt + 5,
      images: stored.images.map((image) => ({ ...image, tags: ['Late'], triagedAt: 99 })),
    }));
    const before = ['a', 'b'].map((localId) => old.get(localId));
    const boardsBefore = old.triage.boards();
    const tagsBefore = old.triage.tags();
    old.close();

    const store = HistoryStore.open(file);
    try {
      expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
      expect(['a', 'b'].map((localId) => store.get(localId))).toEqual(before);
      expect(store.list().items.sort((x, y) => x.localId.localeCompare(y.localId))).toEqual(before);
      expect(store.triage.boards()).toEqual(boardsBefore);
      expect(store.triage.tags()).toEqual(tagsBefore);
      expect(store.listImages({ flag: 'pick' }).items.map((item) => item.localId)).toEqual(['a']);
      expect(store.listImages({ flag: 'reject' }).items).toHaveLength(1);
      expect(store.listImages({ rating: { op: '>=', value: 2 } }).items).toHaveLength(2);
    } finally {
      store.close();
    }
  });

  it('writes a triage edit to the rows alone: the record’s JSON is not rewritten', () => {
    const store = HistoryStore.open(file);
    try {
      store.putMany(triaged());
      const text = recordText('a');
      const [written] = store.editMany(['a'], (stored) => ({
        ...stored,
        favourite: false,
        updatedAt: stored.updatedAt + 1,
        images: stored.images.map((image, n) => {
          if (n === 0) return { ...image, favourite: false };
          return n === 2
            ? { ...image, rating: 5, tags: ['New'], boards: ['Clients'], triagedAt: 9 }
            : image;
        }),
      }));
      expect(recordText('a')).toBe(text);
      expect(store.get('a')).toEqual(written);
      expect(store.get('a')!.images[2]).toMatchObject({ rating: 5, tags: ['New'], triagedAt: 9 });
      expect(store.get('a')!.favourite).toBe(false);
    } finally {
      store.close();
    }
  });

  it('keeps the stored triage when the record is written again (the engine’s write)', () => {
    const store = HistoryStore.open(file);
    try {
      const [task] = triaged() as [TaskRecord];
      store.put(task);
      // Another process rates and unstars, then the engine writes what it held before.
      store.editMany(['a'], (stored) => ({
        ...stored,
        favourite: false,
        images: stored.images.map((image, n) =>
          n === 0 ? { ...image, favourite: false, rating: 1, tags: ['Other'] } : image,
        ),
      }));
      const grown = { ...task, status: 'completed' as const, polls: 11 };
      store.put({ ...grown, images: [...task.images, makeImage(3, { rating: 3 })] });
      const stored = store.get('a')!;
      expect(stored.polls).toBe(11);
      expect(stored.favourite).toBe(false);
      expect(stored.images[0]).toMatchObject({ favourite: false, rating: 1, tags: ['Other'] });
      expect(stored.images[1]).toMatchObject({
        flag: 'reject',
        boards: ['Clients/Acme', 'Moodboard'],
      });
      // A new image takes the record's triage.
      expect(stored.images[3]!.rating).toBe(3);
      // The engine's record with fewer images drops the rows of the images it no longer has.
      store.put({ ...grown, images: task.images.slice(0, 1) });
      expect(store.get('a')!.images).toHaveLength(1);
      expect(store.listImages({ flag: 'reject' }).items).toHaveLength(0);
    } finally {
      store.close();
    }
  });

  it('writes at most 1 KB of the history per image rated', async () => {
    const store = HistoryStore.open(file);
    try {
      const tasks = longPrompted();
      store.putMany(tasks);
      new DatabaseSync(file).exec('PRAGMA wal_checkpoint(TRUNCATE)');
      expect((await stat(`${file}-wal`)).size).toBe(0);
      store.editMany(
        tasks.map((task) => task.localId),
        (stored) => ({
          ...stored,
          updatedAt: stored.updatedAt + 1,
          images: stored.images.map((image) => ({ ...image, rating: 4, triagedAt: 5 })),
        }),
      );
      const images = tasks.length * 4;
      const bytes = (await stat(`${file}-wal`)).size;
      expect(bytes / images).toBeLessThanOrEqual(1024);
    } finally {
      store.close();
    }
  });

  it('a change of triage alone over the rows writes what the record edit writes', () => {
    const parts: TriagePartArgs[] = [
      {
        refs: [0, 1, 2, 3].map((index) => ({ localId: 'a', index })),
        edit: { kind: 'rating', rating: 3 },
      },
      {
        refs: [
          { localId: 'a', index: 1 },
          { localId: 'nowhere', index: 0 },
        ],
        edit: { kind: 'flag', flag: 'pick' },
      },
      {
        refs: [{ localId: 'a', index: 0 }],
        edit: { kind: 'tag', name: 'alpha', key: 'alpha', add: false },
      },
      {
        refs: [{ localId: 'b', index: 0 }],
        edit: { kind: 'board', path: 'clients', key: 'clients', add: false },
      },
      { refs: [{ localId: 'b', index: 0 }], edit: { kind: 'flag', flag: 'reject' } },
    ];
    const library = () => {
      const [a, b] = triaged();
      if (!a || !b) throw new Error('two tasks');
      // Image 2 in the trash: named, it is missing; the star moves to image 1's pick.
      const trashed = {
        ...a,
        favourite: false,
        images: a.images.map((image, n) =>
          n === 2 ? { ...image, state: 'deleted' as const } : { ...image, favourite: false },
        ),
      };
      return [trashed, b];
    };
    const written = () => {
      const store = HistoryStore.open(join(dir, 'rows.sqlite'));
      try {
        store.putManyCounted(library());
        const { refs, edit } = partEdits(parts, 9);
        const result = writeTriage(store, refs, { edit, at: 9 });
        const { logged: _logged, ...rest } = result;
        return { ...rest, a: store.get('a'), b: store.get('b') };
      } finally {
        store.close();
      }
    };
    const rows = written();
    expect(rows).toMatchObject({ changed: 3, unchanged: 0, refused: 0, tasks: 2 });
    // What each task's triage now is, for main to announce: the images written, not the records.
    const deltas = rows.deltas.flatMap((chunk) => JSON.parse(chunk) as TaskTriageDelta[]);
    expect(deltas.map((delta) => taskTriageDeltaSchema().parse(delta))).toEqual([
      {
        localId: 'a',
        favourite: true,
        updatedAt: rows.a?.updatedAt,
        images: [0, 1].map((index) => ({ index, ...triageOfImage(rows.a?.images[index]) })),
      },
      {
        localId: 'b',
        favourite: rows.b?.favourite,
        updatedAt: rows.b?.updatedAt,
        images: [{ index: 0, ...triageOfImage(rows.b?.images[0]) }],
      },
    ]);
    expect(rows.missing).toEqual([
      { localId: 'a', index: 2 },
      { localId: 'a', index: 3 },
      { localId: 'nowhere', index: 0 },
    ]);
    expect(rows.a?.favourite).toBe(true);
    expect(
      rows.a?.images.map((image) => [image.rating, image.flag, image.favourite, image.tags]),
    ).toEqual([
      [3, undefined, false, ['Zeta']],
      [3, undefined, true, undefined],
      [undefined, undefined, false, undefined],
    ]);
    expect(rows.b?.images[0]).toMatchObject({ flag: 'reject', rating: 2 });
    expect(rows.b?.images[0]?.boards).toBeUndefined();
  });

  it('rates over the rows alone at most 1 KB of the history per image, the record untouched', async () => {
    const store = HistoryStore.open(file);
    try {
      const tasks = longPrompted();
      store.putMany(tasks);
      const before = recordText('t-0000');
      new DatabaseSync(file).exec('PRAGMA wal_checkpoint(TRUNCATE)');
      expect((await stat(`${file}-wal`)).size).toBe(0);
      const refs = tasks.flatMap((task) =>
        task.images.map((_, index) => ({ localId: task.localId, index })),
      );
      const done = runHistoryOp(store, 'triage', {
        parts: [{ refs, edit: { kind: 'rating', rating: 4 } }],
        at: 5,
      });
      expect(done).toMatchObject({ changed: refs.length, tasks: tasks.length });
      const bytes = (await stat(`${file}-wal`)).size;
      expect(bytes / refs.length).toBeLessThanOrEqual(1024);
      expect(recordText('t-0000')).toBe(before);
      expect(store.get('t-0000')?.images.map((image) => image.rating)).toEqual([4, 4, 4, 4]);
    } finally {
      store.close();
    }
  });
});
