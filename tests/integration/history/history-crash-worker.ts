/**
 * Child process of history-crash.test.ts: writes records as fast as it can until it is killed.
 * Prints `ready` once the store is open, then `<localId> <polls>` right after each commit.
 * Usage: node --import tsx history-crash-worker.ts <dir> <run> [main]; with `main`, the store is
 * opened as the app's main store is (its worker folds the log: none of these writes folds it).
 */
import { join } from 'node:path';
import { MAIN_CHECKPOINT_PAST } from '../../../electron/core/history/history-port';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { printLine as print } from '../../hardening/support/print-line';

const [dir, run, as] = process.argv.slice(2);
if (dir === undefined || run === undefined)
  throw new Error('usage: history-crash-worker.ts <dir> <run>');

function newRecord(n: number): TaskRecord {
  return newTaskRecord(
    {
      localId: `run${run}-${n}`,
      taskId: null,
      origin: 'submitted',
      endpoint: 'demo:',
      account: 'acct',
      request: { prompt: `crash test ${run} ${n} ${'word '.repeat(n % 40)}`, model: 'demo-model' },
    },
    Date.now(),
  );
}

/** The next version of a record: one more poll, and on some polls a status or image change. */
function advance(record: TaskRecord): TaskRecord {
  const polls = record.polls + 1;
  const now = Date.now();
  const images =
    polls % 3 === 0 ? [...record.images, imageAt(record.images.length)] : record.images;
  return {
    ...record,
    taskId: record.taskId ?? `svc-${record.localId}`,
    status: polls % 7 === 0 ? 'completed' : 'processing',
    polls,
    lastPolledAt: now,
    updatedAt: now,
    images,
  };
}

function imageAt(index: number): TaskRecord['images'][number] {
  return {
    index,
    url: `http://127.0.0.1/${index}.png`,
    state: 'pending',
    attempts: 0,
    favourite: index % 2 === 0,
  };
}

const store = HistoryStore.open(join(dir, 'history.sqlite'), {
  checkpointPast: as === 'main' ? MAIN_CHECKPOINT_PAST : undefined,
});
const live: TaskRecord[] = store.unfinished();
print('ready');
for (let n = 0; ; n += 1) {
  const choice = n % 5;
  if (choice === 0 || live.length === 0) {
    const record = newRecord(n);
    store.put(record);
    live.push(record);
    print(`${record.localId} ${record.polls}`);
  } else if (choice === 4 && live.length >= 3) {
    const batch = live.slice(-3).map(advance);
    store.putMany(batch);
    live.splice(-3, 3, ...batch);
    for (const record of batch) print(`${record.localId} ${record.polls}`);
  } else {
    const at = n % live.length;
    const record = advance(live[at]!);
    store.put(record);
    live[at] = record;
    print(`${record.localId} ${record.polls}`);
  }
}
