/**
 * A connection readied for its first triage write (HistoryStore.warmTriage: the history worker
 * runs it as the library opens, history-port.ts `warm`). Without it the first write after opening
 * compiles each statement it runs on its way and reads its rows through cold caches and code,
 * the slowest of all (at 1,000,000 tasks, 443 ms against 134-164 ms for the next ones, with the
 * worker's start).
 */
import { MAX_SEQ } from './change-feed';
import { READ_CHUNK } from './history-records';
import type { SqliteConnection } from './sqlite-connection';
import { readTriage } from './triage-compose';
import { TRIAGE_ROW_WRITES } from './triage-write';

/**
 * The triage rows of `localIds` read as a triage write reads them (a chunk at a time; outside any
 * transaction: nothing is locked or written), and the statements it writes with prepared.
 * Returns how many tasks were read.
 */
export function warmTriageRows(connection: SqliteConnection, localIds: readonly string[]): number {
  connection.prepareWrite([...TRIAGE_ROW_WRITES, MAX_SEQ]);
  let read = 0;
  for (let from = 0; from < localIds.length; from += READ_CHUNK) {
    read += readTriage(connection, localIds.slice(from, from + READ_CHUNK)).size;
  }
  return read;
}
