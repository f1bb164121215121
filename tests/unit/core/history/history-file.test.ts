import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { HistoryError } from '../../../../electron/core/history/history-error';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { Migration } from '../../../../electron/core/history/history-schema';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { historyFilePerTest, makeImage, makeRecord, recordingLogger } from './history-fixtures';

const history = historyFilePerTest();

/** A second connection to the file, as another process would have. */
function withRaw<T>(work: (db: Raw) => T): T {
  const db = new DatabaseSync(history.file);
  const raw: Raw = {
    get: (sql) => ({ ...db.prepare(sql).get() }),
    all: (sql) => db.prepare(sql).all(),
    run: (sql) => db.exec(sql),
  };
  try {
    return work(raw);
  } finally {
    db.close();
  }
}

interface Raw {
  get(sql: string): Record<string, unknown> | null;
  all(sql: string): Record<string, unknown>[];
  run(sql: string): void;
}

function seed(count: number): void {
  const store = HistoryStore.open(history.file);
  store.putMany(
    Array.from({ length: count }, (_, n) =>
      makeRecord({ localId: `r${n}`, createdAt: n, request: { prompt: `prompt number ${n}` } }),
    ),
  );
  store.close();
}

function openError(migrations?: readonly Migration[], file = history.file): HistoryError {
  try {
    HistoryStore.open(file, migrations === undefined ? {} : { migrations }).close();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('the store opened');
}

describe('HistoryStore on a file', () => {
  it('keeps everything across close and reopen', () => {
    const records = [
      makeRecord({ localId: 'a', status: 'processing', images: [], createdAt: 1 }),
      makeRecord({
        localId: 'b',
        createdAt: 2,
        images: [makeImage(0, { favourite: true })],
        favourite: true,
      }),
    ];
    const first = HistoryStore.open(history.file);
    expect(first.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    first.putMany(records);
    first.close();
    const second = HistoryStore.open(history.file);
    expect(second.list().items).toEqual([records[1], records[0]]);
    expect(second.unfinished().map((record) => record.localId)).toEqual(['a']);
    expect(second.listImages({ favourite: true }).items.map((item) => item.localId)).toEqual(['b']);
    expect(second.count({ search: 'prompt of b' })).toBe(1);
    second.close();
  });

  it('is open in two stores at once, each reading what the other wrote', () => {
    const first = HistoryStore.open(history.file);
    const second = HistoryStore.open(history.file);
    first.put(makeRecord({ localId: 'from-first', createdAt: 1 }));
    second.put(makeRecord({ localId: 'from-second', createdAt: 2 }));
    expect(first.list().items.map((record) => record.localId)).toEqual([
      'from-second',
      'from-first',
    ]);
    expect(second.get('from-first')?.localId).toBe('from-first');
    first.close();
    expect(second.count()).toBe(2);
    second.close();
    withRaw((db) => expect(db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' }));
  });

  it.skipIf(process.platform === 'win32')(
    'keeps the file, its log and its shared memory owner-only (0600), tightening a wider file',
    () => {
      const modes = (): number[] =>
        ['', '-wal', '-shm'].map((suffix) => statSync(`${history.file}${suffix}`).mode & 0o777);
      const store = HistoryStore.open(history.file);
      store.put(makeRecord({ localId: 'a' }));
      expect(modes()).toEqual([0o600, 0o600, 0o600]);
      store.close();
      chmodSync(history.file, 0o644);
      const again = HistoryStore.open(history.file);
      again.put(makeRecord({ localId: 'b' }));
      expect(modes()).toEqual([0o600, 0o600, 0o600]);
      again.close();
    },
  );

  it('opens whatever locks a first-generation process left behind, and removes them', () => {
    seed(3);
    // What a killed first-generation process left: its VFS's lock directory and its pid file
    // (here naming this live process: a pid is never a reason to refuse any more).
    mkdirSync(`${history.file}.lock`);
    writeFileSync(`${history.file}.owner`, JSON.stringify({ pid: process.pid, startedAt: 1 }));
    const store = HistoryStore.open(history.file);
    expect(store.count()).toBe(3);
    store.put(makeRecord({ localId: 'after' }));
    store.close();
    expect(existsSync(`${history.file}.lock`)).toBe(false);
    expect(existsSync(`${history.file}.owner`)).toBe(false);
  });
});

describe('A library written by the first generation (node-sqlite3-wasm, schema v1)', () => {
  // fixtures/history-v1.sqlite: 40 records put by the release before node:sqlite (HistoryStore
  // at commit ca2f603, run under Node 20) and closed cleanly: WAL mode, user_version 1.
  const fixture = join(import.meta.dirname, 'fixtures', 'history-v1.sqlite');

  it('opens without loss, upgraded to the current schema in WAL mode', () => {
    copyFileSync(fixture, history.file);
    withRaw((db) => expect(db.get('PRAGMA user_version')).toEqual({ user_version: 1 }));
    const store = HistoryStore.open(history.file, { integrityCheck: 'always' });
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(store.count()).toBe(40);
    const all = store.list({ limit: 500 }).items;
    expect(all.map((record) => record.localId)).toEqual(
      Array.from({ length: 40 }, (_, n) => `old-${39 - n}`),
    );
    expect(store.get('old-7')?.request.prompt).toBe('lighthouse in a storm, number 7');
    expect(store.unfinished().map((record) => record.localId)).toEqual([
      'old-0',
      'old-5',
      'old-10',
      'old-15',
      'old-20',
      'old-25',
      'old-30',
      'old-35',
    ]);
    // Every word, anywhere: "number 3", "number 13", "number 23" and "number 30" to "39".
    expect(store.count({ search: 'storm, number 3' })).toBe(
      all.filter((record) =>
        ['storm,', 'number', '3'].every((word) => record.request.prompt.includes(word)),
      ).length,
    );
    expect(store.listImages({ favourite: true, limit: 500 }).items).toHaveLength(
      all.flatMap((record) => record.images.filter((image) => image.favourite)).length,
    );
    // v3 brought the task's star and its images' stars together (one favourite).
    const withImages = all.filter((record) => record.images.length > 0);
    expect(withImages.some((record) => record.favourite)).toBe(true);
    for (const record of withImages) {
      expect(record.favourite).toBe(record.images.some((image) => image.favourite));
    }
    expect(store.imageModels()).toEqual(['model-a', 'model-b']);
    // The new tables work on the old rows: a write is logged, a lease is taken.
    const logged = () =>
      withRaw((db) => Number(db.get('SELECT count(*) AS n FROM task_changes')?.['n']));
    // v3's own rewrites of starred tasks are in the log too (other processes reload them).
    const migrated = logged();
    store.put({ ...store.get('old-3')!, favourite: true });
    expect(store.claimLeases(['old-0'], 'me', 1, 2)).toEqual(['old-0']);
    store.close();
    withRaw((db) => {
      expect(db.get('PRAGMA user_version')).toEqual({ user_version: HISTORY_MIGRATIONS.length });
      expect(db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(db.get('SELECT count(*) AS n FROM task_changes')).toEqual({ n: migrated + 1 });
      expect(db.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    });
  });

  it('is upgraded once when several processes open it at the same moment', () => {
    copyFileSync(fixture, history.file);
    const stores = Array.from({ length: 4 }, () => HistoryStore.open(history.file));
    expect(stores.map((store) => store.count())).toEqual([40, 40, 40, 40]);
    for (const store of stores) store.close();
  });
});

describe('HistoryStore migrations', () => {
  let v3Runs = 0;
  const fakeV3: Migration = (db) => {
    v3Runs += 1;
    db.exec('ALTER TABLE tasks ADD COLUMN note TEXT; CREATE TABLE albums (id INTEGER PRIMARY KEY)');
  };
  beforeEach(() => {
    v3Runs = 0;
  });

  it('upgrades a current file by running only the appended migration, keeping the data', () => {
    seed(5);
    const store = HistoryStore.open(history.file, { migrations: [...HISTORY_MIGRATIONS, fakeV3] });
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length + 1);
    expect(store.count()).toBe(5);
    expect(store.get('r3')?.request.prompt).toBe('prompt number 3');
    store.close();
    HistoryStore.open(history.file, { migrations: [...HISTORY_MIGRATIONS, fakeV3] }).close();
    expect(v3Runs).toBe(1);
    withRaw((db) => {
      expect(db.get('PRAGMA user_version')).toEqual({
        user_version: HISTORY_MIGRATIONS.length + 1,
      });
      expect(db.all('PRAGMA table_info(tasks)').some((column) => column['name'] === 'note')).toBe(
        true,
      );
      expect(db.get("SELECT name FROM sqlite_master WHERE name = 'albums'")).toEqual({
        name: 'albums',
      });
    });
  });

  it('rolls back a migration that fails and leaves the file at its version', () => {
    seed(2);
    const failing: Migration = (db) => {
      db.exec('CREATE TABLE half_done (id INTEGER)');
      throw new Error('broken migration');
    };
    const error = openError([...HISTORY_MIGRATIONS, failing]);
    expect(error.message).toMatch(/could not upgrade/);
    expect(error.detail).toContain('broken migration');
    withRaw((db) => {
      expect(db.get('PRAGMA user_version')).toEqual({ user_version: HISTORY_MIGRATIONS.length });
      expect(db.all("SELECT name FROM sqlite_master WHERE name = 'half_done'")).toEqual([]);
    });
    const store = HistoryStore.open(history.file);
    expect(store.count()).toBe(2);
    store.close();
  });

  it('refuses a database from a newer Pictor and does not change it', () => {
    seed(2);
    HistoryStore.open(history.file, { migrations: [...HISTORY_MIGRATIONS, fakeV3] }).close();
    const before = readFileSync(history.file);
    const error = openError();
    expect(error.message).toMatch(/newer version of Pictor.*Update Pictor/);
    expect(readFileSync(history.file).equals(before)).toBe(true);
  });
});

describe('HistoryStore on a bad file', () => {
  it('refuses a file that is not a database and leaves it untouched', () => {
    const bytes = randomBytes(10_000);
    writeFileSync(history.file, bytes);
    const error = openError();
    expect(error.message).toMatch(/is not a Pictor history database/);
    expect(readFileSync(history.file).equals(bytes)).toBe(true);
  });

  describe('a damaged database', () => {
    let damaged: Buffer;
    beforeEach(() => {
      seed(200);
      const root = withRaw((db) =>
        Number(db.get("SELECT rootpage FROM sqlite_master WHERE name = 'tasks'")?.['rootpage']),
      );
      damaged = readFileSync(history.file);
      damaged.fill(0xff, (root - 1) * 4096, (root - 1) * 4096 + 64);
      writeFileSync(history.file, damaged);
    });

    it('is refused, untouched, when an earlier check did not finish, and again at the next open', () => {
      writeFileSync(`${history.file}.check`, '');
      expect(openError().message).toMatch(/is damaged/);
      expect(openError().message).toMatch(/is damaged/);
      expect(readFileSync(history.file).equals(damaged)).toBe(true);
    });

    it('is refused, untouched, when every open is checked', () => {
      expect(() => HistoryStore.open(history.file, { integrityCheck: 'always' })).toThrow(
        /is damaged/,
      );
      expect(readFileSync(history.file).equals(damaged)).toBe(true);
    });

    it('opens after a clean close without a full check, and a read of the damage says so', () => {
      const store = HistoryStore.open(history.file);
      expect(() => store.list()).toThrow(/history database is damaged/);
      store.close();
      expect(readFileSync(history.file).equals(damaged)).toBe(true);
    });
  });

  it('reports a folder that does not exist in a sentence', () => {
    const file = join(history.dir, 'missing', 'history.sqlite');
    expect(openError(undefined, file).message).toMatch(/Pictor could not/);
  });

  it('skips a row whose JSON is corrupt, logging its id but not its content', () => {
    seed(3);
    withRaw((db) => {
      db.run(
        'UPDATE tasks SET record = \'{"localId": "r1", "secret prompt\' WHERE local_id = \'r1\'',
      );
      db.run(
        "UPDATE tasks SET record = json_set(record, '$.status', 'exploded') WHERE local_id = 'r2'",
      );
    });
    const logger = recordingLogger();
    const store = HistoryStore.open(history.file, { logger });
    expect(store.list().items.map((record) => record.localId)).toEqual(['r0']);
    expect(store.get('r1')).toBeUndefined();
    expect(store.listImages().items.map((item) => item.localId)).toEqual(['r0', 'r0']);
    expect(store.count()).toBe(3);
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => line.fields?.['localId'])).toEqual(
      expect.arrayContaining(['r1', 'r2']),
    );
    expect(JSON.stringify(logger.lines)).not.toContain('secret');
    // A put of a valid record repairs the row.
    store.put(makeRecord({ localId: 'r1', createdAt: 1 }));
    expect(store.get('r1')?.localId).toBe('r1');
    store.close();
  });
});
