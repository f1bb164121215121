/**
 * A history file opened for one piece of work and closed after it, whatever the work throws: the
 * tests that write a library as a store would, then read what it left.
 */
import { HistoryStore } from '../../electron/core/history/history-store';

export function withHistoryFile<T>(file: string, work: (store: HistoryStore) => T): T {
  const store = HistoryStore.open(file);
  try {
    return work(store);
  } finally {
    store.close();
  }
}
