/**
 * A history file opened for one piece of work and closed after it, whatever the work throws: the
 * tests that write a library as a store would, then read what it left; and one statement run on
 * it as another program (a newer Pictor) would, past the store.
 */
import { DatabaseSync } from 'node:sqlite';
import { HistoryStore } from '../../electron/core/history/history-store';

export function withHistoryFile<T>(file: string, work: (store: HistoryStore) => T): T {
  const store = HistoryStore.open(file);
  try {
    return work(store);
  } finally {
    store.close();
  }
}

/** `sql` run on `file` as another program (a newer Pictor) would: no store, no migration. */
export function runOnHistoryFile(file: string, sql: string, ...params: string[]): void {
  const db = new DatabaseSync(file);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}
