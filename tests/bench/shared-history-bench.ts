/**
 * Measurements behind the `shared-history` bench suite: the two SQLite engines side
 * by side on the same statements, a 1,000,000-task history, and two processes on one library.
 */
import { existsSync, copyFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import wasm from 'node-sqlite3-wasm';
import { HistoryStore } from '../../electron/core/history/history-store';
import { HISTORY_MIGRATIONS } from '../../electron/core/history/history-schema';
import {
  DELETE_IMAGE,
  INSERT_IMAGE_BEFORE_CREDENTIALS,
  SELECT_IMAGE_INDEXES,
  SELECT_TASK_ROW_ID,
  upsertTask,
} from '../../electron/core/history/history-statements';
import type { TaskRecord } from '../../shared/domain/task-record';
import { isUnfinished } from '../../shared/domain/task-record';
import { summarise, type Stats } from './history-bench';
import { benchRecord } from './history-fixture';

type Value = string | number | null;

/** The few calls both engines are measured through, each with its statements prepared once. */
interface RawDb {
  exec(sql: string): void;
  run(sql: string, params: Value[]): void;
  all(sql: string, params: Value[]): unknown[];
  close(): void;
}

function nodeDb(file: string): RawDb {
  const db = new DatabaseSync(file);
  const cache = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  const prepared = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    exec: (sql) => db.exec(sql),
    run: (sql, params) => void prepared(sql).run(...params),
    all: (sql, params) => prepared(sql).all(...params),
    close: () => db.close(),
  };
}

function wasmDb(file: string): RawDb {
  const db = new wasm.Database(file);
  // As the first generation ran it: a WAL database only opens in exclusive mode on this VFS.
  db.get('PRAGMA locking_mode = EXCLUSIVE');
  const cache = new Map<string, ReturnType<typeof db.prepare>>();
  const prepared = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    exec: (sql) => db.exec(sql),
    run: (sql, params) => void prepared(sql).run(params),
    all: (sql, params) => prepared(sql).all(params),
    close: () => {
      for (const statement of cache.values()) statement.finalize();
      db.close();
    },
  };
}

/** The store's statements for a v1 file (history-statements.ts): a task's row and its images. */
const UPSERT = upsertTask([]);
const FIRST_PAGE =
  'SELECT t.local_id, t.created_at, t.record FROM tasks t WHERE 1 ORDER BY t.created_at DESC, t.local_id DESC LIMIT 51';
const SEARCH_PAGE = `SELECT t.local_id, t.created_at, t.record FROM tasks t
  WHERE +t.id IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ?) ORDER BY t.created_at DESC, t.local_id DESC LIMIT 51`;

/**
 * The store's put on a v1 file, statement for statement (history-records.ts, image-rows.ts: the
 * row, its id by the local id, its image rows each deleted by its key, then written; the engines
 * differ, the SQL does not).
 */
function put(db: RawDb, record: TaskRecord): void {
  db.run(UPSERT, [
    record.localId,
    record.taskId,
    record.endpoint,
    record.status,
    record.request.prompt,
    record.request.model ?? null,
    record.favourite ? 1 : 0,
    record.createdAt,
    record.updatedAt,
    isUnfinished(record) ? 1 : 0,
    JSON.stringify(record),
  ]);
  const [row] = db.all(SELECT_TASK_ROW_ID, [record.localId]) as { id: number | bigint }[];
  for (const stored of db.all(SELECT_IMAGE_INDEXES, [record.localId]) as { idx: number }[]) {
    db.run(DELETE_IMAGE, [record.localId, Number(stored.idx)]);
  }
  record.images.forEach((image, index) =>
    db.run(INSERT_IMAGE_BEFORE_CREDENTIALS, [
      record.localId,
      Number(row?.id),
      index,
      image.state,
      image.favourite ? 1 : 0,
      record.createdAt,
      record.request.model ?? null,
    ]),
  );
}

export interface EngineFigures {
  readonly insertMs: number;
  readonly update: Stats;
  readonly openFirstPage: Stats;
  readonly searchPage: Stats;
}

/** `count` inserts in transactions of 5,000, then updates, opens and searches, on one engine. */
export function engineFigures(
  kind: 'node' | 'wasm',
  dir: string,
  count: number,
  updates: number,
): EngineFigures {
  const file = join(dir, `${kind}.sqlite`);
  const open = (): RawDb => (kind === 'node' ? nodeDb(file) : wasmDb(file));
  let db = open();
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  // As the store runs (sqlite-connection.ts); node:sqlite would turn them on, the wasm engine not.
  db.exec('PRAGMA foreign_keys = OFF');
  db.exec('BEGIN IMMEDIATE');
  // v1, the schema both generations share (node:sqlite's DatabaseSync and the wasm Database
  // both take exec()).
  HISTORY_MIGRATIONS[0]!(db as unknown as DatabaseSync);
  db.exec('PRAGMA user_version = 1');
  db.exec('COMMIT');
  const started = performance.now();
  for (let from = 0; from < count; from += 5_000) {
    db.exec('BEGIN IMMEDIATE');
    for (let n = from; n < Math.min(count, from + 5_000); n += 1) put(db, benchRecord(n));
    db.exec('COMMIT');
  }
  const insertMs = performance.now() - started;
  const updateTimes: number[] = [];
  for (let run = 0; run < updates; run += 1) {
    const record = benchRecord((run * 7_919) % count);
    const start = performance.now();
    db.exec('BEGIN IMMEDIATE');
    put(db, { ...record, polls: record.polls + run + 1 });
    db.exec('COMMIT');
    updateTimes.push(performance.now() - start);
  }
  db.close();
  const openTimes: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const start = performance.now();
    db = open();
    db.all(FIRST_PAGE, []);
    openTimes.push(performance.now() - start);
    if (run < 4) db.close();
  }
  const searchTimes: number[] = [];
  for (let run = 0; run < 10; run += 1) {
    const start = performance.now();
    db.all(SEARCH_PAGE, ['"#999"']);
    searchTimes.push(performance.now() - start);
  }
  db.close();
  return {
    insertMs,
    update: summarise(updateTimes),
    openFirstPage: summarise(openTimes),
    searchPage: summarise(searchTimes),
  };
}

/** A store of `count` bench records, copied from a cache under os.tmpdir() or built there. */
export function largeHistory(file: string, count: number): { built: boolean; buildMs: number } {
  const cache = join(
    tmpdir(),
    `pictor-bench-history-s${HISTORY_MIGRATIONS.length}-g1-${count}.sqlite`,
  );
  if (existsSync(cache)) {
    copyFileSync(cache, file);
    const store = HistoryStore.open(file);
    const valid =
      store.count() === count && store.get(benchRecord(count - 1).localId) !== undefined;
    store.close();
    if (valid) return { built: false, buildMs: 0 };
    rmSync(file, { force: true });
  }
  const started = performance.now();
  const store = HistoryStore.open(file);
  // Batches made on the fly: a million records at once would not fit the heap.
  for (let from = 0; from < count; from += 5_000) {
    store.putMany(
      Array.from({ length: Math.min(5_000, count - from) }, (_, k) => benchRecord(from + k)),
    );
  }
  store.close();
  const buildMs = performance.now() - started;
  const partial = `${cache}.${process.pid}.tmp`;
  copyFileSync(file, partial);
  renameSync(partial, cache);
  return { built: true, buildMs };
}
