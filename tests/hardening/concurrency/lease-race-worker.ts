/**
 * Child of lease-race.test.ts, started from its bundle (tests/support/node-entries.ts): opens the
 * shared history and, for each `go <taskId>` line on stdin, tries to take over that task's
 * (expired) lease at once, printing `won` or `lost`.
 */
import { createInterface } from 'node:readline';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { printLine as print } from '../support/print-line';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: lease-race-worker.ts <history file>');
const store = HistoryStore.open(file);
const owner = `racer-${process.pid}`;
print('ready');
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, taskId] = line.split(' ');
  if (command !== 'go' || !taskId) return;
  const now = Date.now();
  const won = store.claimLeases([taskId], owner, now, now + 60_000).length === 1;
  print(`${won ? 'won' : 'lost'} ${taskId}`);
});
