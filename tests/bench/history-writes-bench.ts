/**
 * The "History write scaling" row's writes (tests/bench/suites/history.ts): the stores opened as
 * the app's main process opens its own, and the disk's own durable commit measured in turn with
 * their puts. Kept apart from history-bench.ts, whose `summarise` seven suites import: a change
 * there makes all their rows stale in docs/PERFORMANCE.md.
 */
import { join } from 'node:path';
import { HistoryPort } from '../../electron/core/history/history-port';
import { HistoryStore } from '../../electron/core/history/history-store';
import { openDatabase } from '../../electron/core/history/sqlite-connection';
import { silentLogger } from '../../electron/ports/logger';
import type { TaskRecord } from '../../shared/domain/task-record';
import { summarise, type Stats } from './history-bench';

/**
 * The store on `file` as the app's main process has it: its history worker running on the same
 * file, which folds the write-ahead log while writes pause, main's own fold only past its bound
 * (electron/core/history/history-port.ts). `close` ends both.
 */
export async function openAsMain(
  file: string,
): Promise<{ store: HistoryStore; close(): Promise<void> }> {
  const port = new HistoryPort(file);
  const store = HistoryStore.open(file, { checkpointPast: port.mainCheckpointPast });
  await port.warm();
  return {
    store,
    close: async () => {
      store.close();
      await port.dispose();
    },
  };
}

/** One timed write of a run; its time in ms. */
type TimedWrite = (run: number) => number;

/** One status update, as the engine writes after a poll: a put of an existing record. */
export function statusUpdates(store: HistoryStore, records: readonly TaskRecord[]): TimedWrite {
  return (run) => {
    const target = records[(run * 7_919) % records.length]!;
    const start = performance.now();
    store.put({ ...target, polls: target.polls + run + 1, updatedAt: Date.now() });
    return performance.now() - start;
  };
}

/**
 * The disk alone: one small row rewritten and committed by a connection opened as the store's is
 * (write-ahead log, synchronous=FULL: sqlite-connection.ts), in a fresh database in `dir`, the
 * history's folder: what a durable commit costs on this disk at this moment, none of the store's
 * own work in it.
 */
export function diskControl(dir: string): { commit: TimedWrite; close(): void } {
  const { connection } = openDatabase(
    join(dir, 'disk-control.sqlite'),
    [(db) => db.exec('CREATE TABLE beat (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)')],
    silentLogger,
  );
  const sql = 'INSERT OR REPLACE INTO beat (k, v) VALUES (1, ?)';
  return {
    commit: (run) => {
      const start = performance.now();
      connection.transaction(() => connection.run(sql, [run]));
      return performance.now() - start;
    },
    close: () => connection.close(),
  };
}

/**
 * Each write `runs` times (after one unmeasured warm-up each), in turn run by run, so machine load
 * (other processes, disk write-back) weighs on all the same; their timings summarised.
 */
export function inTurn<K extends string>(
  writes: Record<K, TimedWrite>,
  runs: number,
): Record<K, Stats> {
  const entries = Object.entries(writes) as [K, TimedWrite][];
  const times = new Map<K, number[]>(entries.map(([name]) => [name, []]));
  for (const [, write] of entries) write(runs);
  for (let run = 0; run < runs; run += 1)
    for (const [name, write] of entries) times.get(name)!.push(write(run));
  return Object.fromEntries(entries.map(([name]) => [name, summarise(times.get(name)!)])) as Record<
    K,
    Stats
  >;
}
