/**
 * Child process of settings-writers.test.ts: another process writing the settings file.
 * - `count <dataDir> <n> <waitMs>`: n changes, each reading a counter in settings.json and writing
 *   it one higher as one change of the file (the store the CLI keeps it in, its lock waited for up
 *   to waitMs), then `done`;
 * - `hold <dataDir>`: a writer of today caught between its write and its rename: it holds the
 *   file's lock (the SQLite lock of adapters/store-lock.ts, taken as a write takes it) with its
 *   temporary file beside the file, prints `holding <temporary file>`, and lets go (removing it,
 *   as its rename would) when a line comes on stdin.
 *
 * Started from its bundle (tests/support/node-entries.ts):
 * Usage: node settings-writer-worker.js count|hold <dataDir> [n waitMs]
 */
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { storeLockPath } from '../../../electron/adapters/store-lock';
import { storeTempPath } from '../../../electron/adapters/store-temps';
import { printLine as print } from '../support/print-line';

/** The key the counting writers share. */
export const COUNTER = 'counter';

function count(dataDir: string, n: number, waitMs: number): void {
  const kv = new JsonFileKv(dataDir, 'settings', waitMs);
  for (let i = 0; i < n; i += 1) {
    kv.exclusively(() => {
      const now = kv.get(COUNTER);
      kv.set(COUNTER, (typeof now === 'number' ? now : 0) + 1);
    });
  }
  print('done');
}

function hold(dataDir: string): void {
  const file = join(dataDir, 'settings.json');
  const db = new DatabaseSync(storeLockPath(file), { timeout: 5_000 });
  db.exec('PRAGMA journal_mode = MEMORY');
  db.exec('BEGIN IMMEDIATE');
  const temporary = storeTempPath(file);
  writeFileSync(temporary, '{"settings":{"theme":"dark"}}\n', { mode: 0o600 });
  print(`holding ${temporary}`);
  process.stdin.once('data', () => {
    rmSync(temporary, { force: true });
    db.close();
    print('released');
    process.exit(0);
  });
}

function main(): void {
  const [mode, dataDir, n, waitMs] = process.argv.slice(2);
  if (!dataDir) throw new Error('usage: settings-writer-worker count|hold <dataDir> [n waitMs]');
  if (mode === 'count') count(dataDir, Number(n), Number(waitMs));
  else if (mode === 'hold') hold(dataDir);
  else throw new Error(`unknown mode ${mode}`);
}

if (process.argv[1]?.includes('settings-writer-worker')) main();
