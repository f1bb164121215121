/**
 * The warm-up the history worker runs as the library opens (HistoryStore.warmTriage, asked by
 * HistoryPort.warm from openPictorCore): it readies the worker's connection for the first triage
 * write, which otherwise compiled each of its statements on its way (the cold first rating of the
 * "Triage at a million tasks" and "Main stall" rows), and writes nothing.
 */
import { DatabaseSync, type DatabaseSyncOptions } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { runHistoryOp } from '../../../../electron/core/history/history-worker-ops';
import { historyFilePerTest, makeImage, makeRecord } from './history-fixtures';

const AT = 1_800_000_000_000;
const TASKS = 300;

/** A connection that counts the statements it compiles. */
function countingDatabase(prepared: string[]) {
  return (file: string, options: DatabaseSyncOptions): DatabaseSync => {
    const db = new DatabaseSync(file, options);
    const prepare = db.prepare.bind(db);
    db.prepare = (sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    };
    return db;
  };
}

describe('HistoryStore.warmTriage: the first triage write readied as the library opens', () => {
  const history = historyFilePerTest();
  const stores: HistoryStore[] = [];
  const open = (prepared: string[] = []) => {
    const store = HistoryStore.open(history.file, { database: countingDatabase(prepared) });
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    const store = HistoryStore.open(history.file);
    store.putMany(
      Array.from({ length: TASKS }, (_, n) =>
        makeRecord({
          localId: `local-${String(n).padStart(4, '0')}`,
          createdAt: 1_700_000_000_000 + n * 1_000,
          images: [0, 1, 2].map((index) => makeImage(index)),
        }),
      ),
    );
    store.close();
  });
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
  });

  const rateNewest = (store: HistoryStore, rating: number) =>
    runHistoryOp(store, 'triage', {
      parts: [{ refs: store.imageKeys({}, 600), edit: { kind: 'rating', rating } }],
      at: AT,
    });

  it('leaves the first rating after it no statement to compile', () => {
    const prepared: string[] = [];
    const store = open(prepared);
    expect(runHistoryOp(store, 'warm', { tasks: 2_000 })).toEqual({ tasks: TASKS });
    // What the rating's own selection needs (the grid's, made on main) is not the write's.
    const refs = store.imageKeys({}, 600);
    prepared.length = 0;
    const written = runHistoryOp(store, 'triage', {
      parts: [{ refs, edit: { kind: 'rating', rating: 4 } }],
      at: AT,
    });
    expect(written.changed).toBe(600);
    expect(prepared).toEqual([]);
  });

  it('is what a cold connection compiles during its first rating', () => {
    // The control: without the warm-up, the same rating compiles its statements as it goes.
    const prepared: string[] = [];
    const store = open(prepared);
    const refs = store.imageKeys({}, 600);
    prepared.length = 0;
    runHistoryOp(store, 'triage', {
      parts: [{ refs, edit: { kind: 'rating', rating: 4 } }],
      at: AT,
    });
    expect(prepared.length).toBeGreaterThanOrEqual(5);
  });

  it('writes nothing, and reads the newest tasks at most', () => {
    const store = open();
    // Another connection's data_version moves with every commit of this one.
    const other = new DatabaseSync(history.file);
    const version = () => other.prepare('PRAGMA data_version').get()?.['data_version'];
    try {
      const before = version();
      expect(runHistoryOp(store, 'warm', { tasks: 100 })).toEqual({ tasks: 100 });
      expect(version()).toBe(before);
      expect(rateNewest(store, 2).changed).toBe(600);
      expect(version()).not.toBe(before);
    } finally {
      other.close();
    }
  });
});
