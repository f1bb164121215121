/**
 * Child process of history-crash.test.ts: stores committed records, then opens a transaction
 * that changes every record and is far larger than the page cache, so SQLite writes its
 * uncommitted pages out before any commit; prints `spilled` and waits to be killed.
 * Usage: node --import tsx history-spill-worker.ts <file> <records>
 */
import { writeSync } from 'node:fs';
import { openDatabase } from '../../../electron/core/history/sqlite-connection';
import { HISTORY_MIGRATIONS } from '../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { silentLogger } from '../../../electron/ports/logger';
import { newTaskRecord } from '../../../shared/domain/task-record';

const [file, count] = process.argv.slice(2);
if (file === undefined || count === undefined)
  throw new Error('usage: history-spill-worker.ts <file> <records>');

const store = HistoryStore.open(file);
store.putMany(
  Array.from({ length: Number(count) }, (_, n) =>
    newTaskRecord(
      {
        localId: `committed-${n}`,
        taskId: `svc-${n}`,
        origin: 'submitted',
        endpoint: 'demo:',
        account: 'acct',
        request: { prompt: `committed lighthouse ${n}` },
      },
      1_700_000_000_000 + n,
    ),
  ),
);
store.close();

const { connection } = openDatabase(file, HISTORY_MIGRATIONS, silentLogger);
connection.run('PRAGMA cache_size = 8');
connection.run('BEGIN IMMEDIATE');
connection.run("UPDATE tasks SET prompt = prompt || ' uncommitted ' || hex(randomblob(200))");
writeSync(1, 'spilled\n');
setInterval(() => undefined, 60_000);
