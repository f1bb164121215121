/**
 * The model filter's choices (core/history/image-models.ts) on real SQLite: the same models as a
 * DISTINCT of every shown image's model, read as one walk of `images_newest` that never puts the
 * rows through a temporary B-tree (the 0.63 s of 2.5 million images that were a DISTINCT's).
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { binaryOrder, MODELS_LISTED_AT_MOST } from '../../../../electron/core/history/image-models';
import type { AnchorKey } from '../../../../electron/core/history/position-anchors';
import { SqliteConnection } from '../../../../electron/core/history/sqlite-connection';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { historyStorePerTest, makeImage, makeRecord } from './history-fixtures';

const DISTINCT =
  "SELECT DISTINCT model FROM images WHERE model IS NOT NULL AND model <> '' AND state <> 'deleted' ORDER BY model";

const history = historyStorePerTest();
afterEach(() => {
  vi.restoreAllMocks();
});

/** A task of `images` images asking for `model`, made at `at` (ties are part of the order). */
function task(n: number, model: string, at: number, states: readonly string[]): TaskRecord {
  return makeRecord({
    localId: `t-${String(n).padStart(4, '0')}`,
    createdAt: at,
    request: { prompt: `p ${n}`, model, size: '1024x1024', quality: 'high' },
    images: states.map((state, index) => makeImage(index, { state: state as 'saved' })),
  });
}

/** `read` on a second, read-only connection to the file (another process's view). */
function reading<T>(read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(history.file, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** What SQLite's own DISTINCT says. */
const distinct = () =>
  reading((db) =>
    db
      .prepare(DISTINCT)
      .all()
      .map((row) => String(row['model'])),
  );

/** Every `every`th key of the newest-first order (of every image, deleted ones too). */
const keysOf = (every: number): AnchorKey[] =>
  reading((db) =>
    db
      .prepare(
        'SELECT created_at, local_id, idx FROM images ORDER BY created_at DESC, local_id DESC, idx',
      )
      .all()
      .filter((_row, n) => (n + 1) % every === 0)
      .map(
        (row) => [Number(row['created_at']), String(row['local_id']), Number(row['idx'])] as const,
      ),
  );

/** Each SQL the store runs through its connection while `work` runs. */
function statementsOf(work: () => void): string[] {
  const seen: string[] = [];
  const all = SqliteConnection.prototype.all;
  vi.spyOn(SqliteConnection.prototype, 'all').mockImplementation(function (
    this: SqliteConnection,
    sql,
    params,
  ) {
    seen.push(sql);
    return all.call(this, sql, params);
  });
  work();
  vi.restoreAllMocks();
  return seen;
}

/** SQLite's plan of `sql`, its steps' details joined. */
const planOf = (sql: string): string =>
  reading((db) =>
    db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x'))
      .map((row) => String(row['detail']))
      .join('; '),
  );

describe('the models of the shown images', () => {
  it('are those of a DISTINCT: deleted images left out, ties and rare models found, in byte order', () => {
    const models = ['model-a', 'model-b', 'Zeta', 'zeta', 'émile', 'Ωmega', '😀 face', 'ö'];
    const records: TaskRecord[] = [];
    // Many tasks of the common models, some made at the same millisecond.
    for (let n = 0; n < 300; n += 1) {
      const model = models[n % 3 === 0 ? 1 : 0]!;
      records.push(task(n, model, 1_700_000_000_000 + Math.floor(n / 4), ['saved', 'expired']));
    }
    // The rarest models: one in the oldest task, one in the newest, one among ties.
    records.push(task(900, 'Zeta', 1_600_000_000_000, ['invalid']));
    records.push(task(901, 'zeta', 1_800_000_000_000, ['pending']));
    records.push(task(902, 'émile', 1_700_000_000_010, ['saved']));
    records.push(task(903, 'Ωmega', 1_700_000_000_010, ['deleted', 'saved']));
    records.push(task(904, '😀 face', 1_650_000_000_000, ['saved']));
    records.push(task(905, 'ö', 1_650_000_000_000, ['expired']));
    // Named only by deleted images, or by none: not a choice.
    records.push(task(906, 'only-deleted', 1_750_000_000_000, ['deleted', 'deleted']));
    records.push(task(907, 'no-images', 1_750_000_000_000, []));
    history.store.putMany(records);

    const found = history.store.imageModels();
    expect(found).toEqual(distinct());
    expect(found).toEqual(
      [...models].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    // In slices between keys of the order (ties cut among them): each model once, the same set.
    for (const every of [1, 7, 37, 1000]) {
      const sliced: string[] = [];
      let after: AnchorKey | null = null;
      for (const upTo of [...keysOf(every), null]) {
        sliced.push(...history.store.imageModels({ found: [...sliced], after, upTo }));
        after = upTo;
      }
      expect(sliced.sort(binaryOrder)).toEqual(found);
    }
  });

  it('are read in one walk of images_newest, a read per model and one more, no temporary B-tree', () => {
    const records: TaskRecord[] = [];
    for (let n = 0; n < 200; n += 1) {
      records.push(task(n, `model-${n % 5}`, 1_700_000_000_000 + n, ['saved', 'deleted']));
    }
    history.store.putMany(records);
    let found: string[] = [];
    const statements = statementsOf(() => {
      found = history.store.imageModels();
    });
    expect(found).toEqual(['model-0', 'model-1', 'model-2', 'model-3', 'model-4']);
    expect(statements).toHaveLength(found.length + 1);
    for (const sql of statements) {
      const plan = planOf(sql);
      expect(plan).toMatch(/COVERING INDEX images_newest/);
      // A DISTINCT or a sort puts every row it reads through one.
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('bind at most MODELS_LISTED_AT_MOST names a read: a library of more models is read whole', () => {
    // A crafted library may name more models than a statement may bind (32,766 variables).
    const many = MODELS_LISTED_AT_MOST + 57;
    const records: TaskRecord[] = [];
    for (let n = 0; n < many * 2; n += 1) {
      records.push(task(n, `m-${n % many}`, 1_700_000_000_000 + n, ['saved']));
    }
    history.store.putMany(records);
    const binds: number[] = [];
    const all = SqliteConnection.prototype.all;
    vi.spyOn(SqliteConnection.prototype, 'all').mockImplementation(function (
      this: SqliteConnection,
      sql,
      params,
    ) {
      binds.push((sql.match(/\?/g) ?? []).length);
      return all.call(this, sql, params);
    });
    const found = history.store.imageModels();
    vi.restoreAllMocks();
    expect(found).toEqual(distinct());
    expect(found).toHaveLength(many);
    expect(Math.max(...binds)).toBeLessThanOrEqual(MODELS_LISTED_AT_MOST + 5);
    expect(binds.length).toBeLessThanOrEqual(MODELS_LISTED_AT_MOST + 1);
    // In slices, with more found before a slice than a read binds: the same set.
    const sliced: string[] = [];
    let after: AnchorKey | null = null;
    for (const upTo of [...keysOf(97), null]) {
      sliced.push(...history.store.imageModels({ found: [...sliced], after, upTo }));
      after = upTo;
    }
    expect(sliced.sort(binaryOrder)).toEqual(found);
  });
});
