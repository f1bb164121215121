import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import type { Database } from 'node-sqlite3-wasm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HistoryError,
  HistoryStore,
  type Migration,
} from '../../../../electron/core/history/history-store';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { makeImage, makeRecord, recordingLogger, tempDir } from './history-fixtures';

let temp: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  temp = tempDir();
  file = join(temp.dir, 'history.sqlite');
});
afterEach(() => temp.remove());

function withRaw<T>(work: (db: Database) => T): T {
  const db = new sqlite.Database(file);
  // The history is a WAL database in exclusive mode: this VFS opens one no other way.
  db.get('PRAGMA locking_mode = EXCLUSIVE');
  try {
    return work(db);
  } finally {
    db.close();
  }
}

function seed(count: number): void {
  const store = HistoryStore.open(file);
  store.putMany(
    Array.from({ length: count }, (_, n) =>
      makeRecord({ localId: `r${n}`, createdAt: n, request: { prompt: `prompt number ${n}` } }),
    ),
  );
  store.close();
}

function openError(migrations?: readonly Migration[]): HistoryError {
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
    const first = HistoryStore.open(file);
    expect(first.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    first.putMany(records);
    first.close();
    const second = HistoryStore.open(file);
    expect(second.list().items).toEqual([records[1], records[0]]);
    expect(second.unfinished().map((record) => record.localId)).toEqual(['a']);
    expect(second.listImages({ favourite: true }).items.map((item) => item.localId)).toEqual(['b']);
    expect(second.count({ search: 'prompt of b' })).toBe(1);
    second.close();
  });

  it('refuses a second open of the same file until the first is closed', () => {
    const first = HistoryStore.open(file);
    expect(() => HistoryStore.open(file)).toThrow(/Another Pictor process/);
    first.close();
    HistoryStore.open(file).close();
  });

  it('opens after a process died holding the file, removing the locks it left', () => {
    seed(3);
    // What a killed process leaves: the VFS's lock directory and our owner file with its pid.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.owner`, JSON.stringify({ pid: dead, startedAt: 1 }));
    const logger = recordingLogger();
    const store = HistoryStore.open(file, { logger });
    expect(store.count()).toBe(3);
    store.put(makeRecord({ localId: 'after' }));
    store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(existsSync(`${file}.owner`)).toBe(false);
    expect(existsSync(`${file}.check`)).toBe(false);
    expect(logger.lines.some((line) => line.level === 'warn')).toBe(true);
  });
});

describe('HistoryStore migrations', () => {
  let v2Runs = 0;
  const fakeV2: Migration = (db) => {
    v2Runs += 1;
    db.exec('ALTER TABLE tasks ADD COLUMN note TEXT; CREATE TABLE albums (id INTEGER PRIMARY KEY)');
  };
  beforeEach(() => {
    v2Runs = 0;
  });

  it('upgrades a v1 file by running only the appended migration, keeping the data', () => {
    seed(5);
    const store = HistoryStore.open(file, { migrations: [...HISTORY_MIGRATIONS, fakeV2] });
    expect(store.schemaVersion).toBe(2);
    expect(store.count()).toBe(5);
    expect(store.get('r3')?.request.prompt).toBe('prompt number 3');
    store.close();
    HistoryStore.open(file, { migrations: [...HISTORY_MIGRATIONS, fakeV2] }).close();
    expect(v2Runs).toBe(1);
    withRaw((db) => {
      expect(db.get('PRAGMA user_version')).toEqual({ user_version: 2 });
      expect(db.all('PRAGMA table_info(tasks)').some((column) => column['name'] === 'note')).toBe(
        true,
      );
      expect(db.get("SELECT name FROM sqlite_master WHERE name = 'albums'")).not.toBeNull();
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
      expect(db.get('PRAGMA user_version')).toEqual({ user_version: 1 });
      expect(db.get("SELECT name FROM sqlite_master WHERE name = 'half_done'")).toBeNull();
    });
    const store = HistoryStore.open(file);
    expect(store.count()).toBe(2);
    store.close();
  });

  it('refuses a database from a newer Pictor and does not change it', () => {
    seed(2);
    HistoryStore.open(file, { migrations: [...HISTORY_MIGRATIONS, fakeV2] }).close();
    const before = readFileSync(file);
    const error = openError();
    expect(error.message).toMatch(/newer version of Pictor.*Update Pictor/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}.owner`)).toBe(false);
  });
});

describe('HistoryStore on a bad file', () => {
  it('refuses a file that is not a database and leaves it untouched', () => {
    const bytes = randomBytes(10_000);
    writeFileSync(file, bytes);
    const error = openError();
    expect(error.message).toMatch(/is not a Pictor history database/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(existsSync(`${file}.owner`)).toBe(false);
  });

  describe('a damaged database', () => {
    let damaged: Buffer;
    beforeEach(() => {
      seed(200);
      const root = withRaw((db) =>
        Number(db.get("SELECT rootpage FROM sqlite_master WHERE name = 'tasks'")?.['rootpage']),
      );
      damaged = readFileSync(file);
      damaged.fill(0xff, (root - 1) * 4096, (root - 1) * 4096 + 64);
      writeFileSync(file, damaged);
    });

    it('is refused, untouched, when opened after a crash, and again at the next open', () => {
      writeFileSync(
        `${file}.owner`,
        JSON.stringify({ pid: spawnSync(process.execPath, ['-e', '']).pid, startedAt: 1 }),
      );
      expect(openError().message).toMatch(/is damaged/);
      expect(openError().message).toMatch(/is damaged/);
      expect(readFileSync(file).equals(damaged)).toBe(true);
    });

    it('is refused, untouched, when every open is checked', () => {
      expect(() => HistoryStore.open(file, { integrityCheck: 'always' })).toThrow(/is damaged/);
      expect(readFileSync(file).equals(damaged)).toBe(true);
    });

    it('opens after a clean close without a full check, and a read of the damage says so', () => {
      const store = HistoryStore.open(file);
      expect(() => store.list()).toThrow(/history database is damaged/);
      store.close();
      expect(readFileSync(file).equals(damaged)).toBe(true);
    });
  });

  it('reports a folder that does not exist in a sentence', () => {
    file = join(temp.dir, 'missing', 'history.sqlite');
    expect(openError().message).toMatch(/Pictor could not/);
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
    const store = HistoryStore.open(file, { logger });
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
