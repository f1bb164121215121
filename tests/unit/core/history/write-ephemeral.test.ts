/**
 * The history's writes of a task (a put, its updates, fewer images, a lease, a removal) and its
 * reads by service task id build no ephemeral table: SQLite gives each its own page cache (an
 * 87 KB allocation at every run), and `INSERT … RETURNING id` built one about five times per
 * downloaded image. Every statement they run (spied at the driver) is compiled on a real history
 * file and its EXPLAIN read for `OpenEphemeral` and `OpenAutoindex`: EXPLAIN lists the programs of
 * the triggers and foreign-key actions a statement fires too, so what those run is counted. They
 * are compiled as the store compiles them (its connection's settings: foreign keys off), and none
 * of the file's statements builds one (the removal's cascade, the count of tags and the prompt
 * history's prune: removal-tags-prompts-ephemeral.test.ts).
 *
 * The new statements give what the old gave: on files the store wrote from a generated set of
 * records (new, updated, with fewer images, removed; service ids shared and tied in time), the
 * row id read after the upsert is RETURNING's, the image rows deleted one by their key are those
 * the old range deletes removed, and the newest task of a service id is the old ORDER BY's.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import * as statements from '../../../../electron/core/history/history-statements';
import { statementsOf, storeDatabase, withEphemeral } from '../../../support/sqlite-plans';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const { upsertTask } = statements;
import { makeImage, makeTask } from '../../../support/task-records';
import { seededRandom } from '../../../../electron/demo-service/prng';

let dir: string;
beforeAll(async () => {
  dir = await tempFolder('write-ephemeral');
});
afterAll(async () => {
  await removeFolder(dir);
});

const task = (localId: string, count: number, more: Partial<TaskRecord> = {}): TaskRecord =>
  makeTask({
    localId,
    taskId: `svc-${localId}`,
    images: Array.from({ length: count }, (_, idx) => makeImage(idx)),
    ...more,
  });

describe("a task's writes and reads by service id", () => {
  it('build no ephemeral table', () => {
    const file = join(dir, 'plans.sqlite');
    const store = HistoryStore.open(file);
    const sqls = statementsOf(() => {
      store.put(task('a', 3, { status: 'processing', images: [] }));
      store.put(task('a', 3));
      store.put(task('a', 3, { updatedAt: 5 }));
      store.put(task('a', 1, { updatedAt: 6 }));
      store.putMany([task('b', 2), task('a', 2, { updatedAt: 7 })], { owner: 'o', until: 9 });
      store.getByTaskId('demo:', 'svc-a');
      store.findByTaskId('svc-b');
      store.delete('a');
      store.detach(task('b', 2));
    });
    store.close();
    const db = storeDatabase(file);
    try {
      expect(sqls.size).toBeGreaterThan(10);
      expect(withEphemeral(db, sqls)).toEqual([]);
      // What the check finds: each of the statements these writes and reads used to run, with
      // the foreign keys on as they ran then.
      db.exec('PRAGMA foreign_keys = ON');
      const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('tasks');
      const later = columns.map((row) => String(row['name'])).slice(12);
      const old = [
        `${upsertTask(later)} RETURNING id`,
        'DELETE FROM images WHERE local_id = ?',
        'DELETE FROM images WHERE local_id = ? AND idx >= ?',
        'SELECT local_id, record FROM tasks WHERE task_id = ? ORDER BY created_at DESC, local_id DESC LIMIT 1',
      ];
      expect(withEphemeral(db, old)).toEqual(old);
    } finally {
      db.close();
    }
  });
});

describe('the statements of history-statements.ts', () => {
  it('build none', () => {
    const file = join(dir, 'statements.sqlite');
    HistoryStore.open(file).close();
    const db = storeDatabase(file);
    try {
      const all = Object.values(statements).filter((value) => typeof value === 'string');
      expect(all.length).toBeGreaterThan(20);
      expect(withEphemeral(db, all)).toEqual([]);
    } finally {
      db.close();
    }
  });
});

/**
 * A history file written by the store from `steps` generated writes: new tasks, updates with
 * more or fewer images, removals; few service ids on two endpoints, created at few times (ties).
 * Returns the file and the records it holds.
 */
function generatedHistory(seed: number, steps: number): [string, Map<string, TaskRecord>] {
  const file = join(dir, `generated-${seed}.sqlite`);
  const store = HistoryStore.open(file);
  // The demo service's seeded generator (mulberry32): the same records at every run.
  const next = seededRandom(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const live = new Map<string, TaskRecord>();
  for (let step = 0; step < steps; step += 1) {
    const ids = [...live.keys()];
    const roll = next();
    const stored = ids[pick(ids.length)];
    if (roll < 0.15 && stored !== undefined) {
      expect(store.delete(stored)).toBe(true);
      live.delete(stored);
      continue;
    }
    const localId = roll < 0.55 && stored !== undefined ? stored : `t-${step}`;
    const record = task(localId, pick(5), {
      taskId: `svc-${pick(6)}`,
      endpoint: pick(2) === 0 ? 'demo:' : 'https://api.example.com',
      createdAt: live.get(localId)?.createdAt ?? 1_000 + pick(4),
      updatedAt: 2_000 + step,
    });
    store.put(record);
    live.set(localId, record);
  }
  store.close();
  return [file, live];
}

const OLD_BY_TASK_ID =
  'SELECT local_id FROM tasks WHERE endpoint = ? AND task_id = ? ORDER BY created_at DESC, local_id DESC LIMIT 1';
const OLD_BY_TASK_ID_ANY =
  'SELECT local_id FROM tasks WHERE task_id = ? ORDER BY created_at DESC, local_id DESC LIMIT 1';

describe('the new statements against the old, on generated histories', () => {
  let histories: [string, Map<string, TaskRecord>][] = [];
  beforeAll(() => {
    histories = [1, 2, 3].map((seed) => generatedHistory(seed, 200));
  });

  it('the row id read after the upsert is the one RETURNING gave, inserted or updated', () => {
    for (const [file] of histories) {
      const db = new DatabaseSync(file);
      try {
        const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('tasks');
        const names = columns.map((row) => String(row['name'])).slice(1);
        const sql = upsertTask(names.slice(11));
        const rows = db.prepare('SELECT * FROM tasks ORDER BY id').all();
        expect(rows.length).toBeGreaterThan(20);
        for (const [at, row] of rows.entries()) {
          // An update of a stored row, and a new row: each written both ways from the same state.
          for (const localId of [String(row['local_id']), `new-${at}`]) {
            const values = names.map((name) => (name === 'local_id' ? localId : row[name]!));
            db.exec('SAVEPOINT before');
            const [returned] = db.prepare(`${sql} RETURNING id`).all(...values);
            const oldTable = JSON.stringify(db.prepare('SELECT * FROM tasks ORDER BY id').all());
            db.exec('ROLLBACK TO before');
            db.prepare(sql).run(...values);
            const read = db.prepare('SELECT id FROM tasks WHERE local_id = ?').get(localId);
            const newTable = JSON.stringify(db.prepare('SELECT * FROM tasks ORDER BY id').all());
            db.exec('ROLLBACK TO before');
            db.exec('RELEASE before');
            expect(read?.['id']).toBe(returned?.['id']);
            expect(newTable).toBe(oldTable);
          }
        }
      } finally {
        db.close();
      }
    }
  });

  it("each task's image rows are its images, on its row; a removed task's are gone", () => {
    for (const [file, live] of histories) {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        const images = db.prepare('SELECT local_id, idx, task_row FROM images').all();
        const ids = new Map(
          db
            .prepare('SELECT local_id, id FROM tasks')
            .all()
            .map((row) => [row['local_id'], row['id']]),
        );
        expect(images.every((row) => ids.get(row['local_id']) === row['task_row'])).toBe(true);
        const stored = images.map((row) => `${String(row['local_id'])}/${Number(row['idx'])}`);
        const expected = [...live.values()].flatMap((record) =>
          record.images.map((_, idx) => `${record.localId}/${idx}`),
        );
        expect(stored.sort()).toEqual(expected.sort());
        expect([...ids.keys()].sort()).toEqual([...live.keys()].sort());
      } finally {
        db.close();
      }
    }
  });

  it('the newest task of a service id is the one the old ORDER BY … LIMIT 1 found', () => {
    for (const [file] of histories) {
      const db = new DatabaseSync(file, { readOnly: true });
      const store = HistoryStore.open(file);
      try {
        let shared = 0;
        for (let n = 0; n < 7; n += 1) {
          const taskId = `svc-${n}`;
          const any = db.prepare(OLD_BY_TASK_ID_ANY).get(taskId)?.['local_id'];
          expect(store.findByTaskId(taskId)?.localId).toBe(any);
          for (const endpoint of ['demo:', 'https://api.example.com', 'https://none.test']) {
            const old = db.prepare(OLD_BY_TASK_ID).get(endpoint, taskId)?.['local_id'];
            expect(store.getByTaskId(endpoint, taskId)?.localId).toBe(old);
            const count = 'SELECT count(*) AS n FROM tasks WHERE endpoint = ? AND task_id = ?';
            if (Number(db.prepare(count).get(endpoint, taskId)?.['n']) > 1) shared += 1;
          }
        }
        // The generated ids are shared by several tasks (the pick among them is what is compared).
        expect(shared).toBeGreaterThan(3);
      } finally {
        store.close();
        db.close();
      }
    }
  });
});
