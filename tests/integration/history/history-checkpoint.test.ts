/**
 * Where the write-ahead log is folded into the history file: the app's main store commits into
 * the log and returns, leaving the fold to the history worker (history-worker.ts), which folds
 * once writes pause; main folds only past its bound, so the log stays bounded when the worker
 * cannot. What the log holds is on disk all the same: a process killed before any fold loses none.
 *
 * A commit folded into the file shows in a copy of the file alone (its log left behind).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { HistoryPort, MAIN_CHECKPOINT_PAST } from '../../../electron/core/history/history-port';
import { HistoryStore } from '../../../electron/core/history/history-store';
import {
  FOLD_LOOK_MS,
  FOLD_WHILE_WRITING_MS,
  type ClockLooked,
  type ClockTick,
} from '../../../electron/core/history/history-worker-protocol';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { bundledHistoryPort } from '../../support/bundled-history-worker';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { testFolder } from '../../support/per-test';
import { UNTIL } from '../../support/waits';

/** SQLite's own bound (`wal_autocheckpoint`), which a store opened with no other folds past. */
const SQLITE_DEFAULT_PAGES = 1_000;

function record(n: number): TaskRecord {
  return newTaskRecord(
    {
      localId: `fold-${n}`,
      taskId: null,
      origin: 'submitted',
      endpoint: 'demo:',
      account: 'acct',
      request: { prompt: `fold ${n} ${'lighthouse '.repeat(20)}`, model: 'demo-model' },
    },
    1_800_000_000_000 + n,
  );
}

/**
 * Puts records one transaction each until the log has held `pages` pages (or, a log folded and
 * reused from its start that never gets there, for as many records as pages); how many it put.
 */
function putUntilLogHolds(store: HistoryStore, file: string, pages: number): number {
  let n = 0;
  for (; n < pages && logPages(file) < pages; n += 1) store.put(record(n));
  return n;
}

/** The pages the log file has room for (it grows to its largest content, and is reused after). */
function logPages(file: string): number {
  return Math.floor((statSync(`${file}-wal`).size - 32) / (4_096 + 24));
}

/** Whether a copy of the database file alone (no log) holds the record: a fold wrote it there. */
function folded(file: string, localId: string): boolean {
  const copy = `${file}.alone`;
  copyFileSync(file, copy);
  const store = HistoryStore.open(copy);
  try {
    return store.get(localId) !== undefined;
  } finally {
    store.close();
  }
}

function opened(file: string, checkpointPast?: number): HistoryStore {
  const store = HistoryStore.open(file, { checkpointPast });
  onTestFinished(() => store.close());
  return store;
}

/** A history file opened as main's store is, its worker running beside it (both ended with the test). */
async function mainBesideWorker(clock?: MessagePort) {
  const dir = await testFolder('checkpoint');
  const file = join(dir, 'history.sqlite');
  const port = new HistoryPort(file, { ...bundledHistoryPort().historyPort, clock });
  onTestFinished(() => port.dispose());
  const main = opened(file, port.mainCheckpointPast);
  await port.warm();
  return { file, main };
}
describe('the history write-ahead log', { timeout: 120_000 }, () => {
  it("main's store commits past SQLite's default without folding; a default store folds", async () => {
    const dir = await testFolder('checkpoint');
    const main = join(dir, 'main.sqlite');
    const count = putUntilLogHolds(
      opened(main, MAIN_CHECKPOINT_PAST),
      main,
      SQLITE_DEFAULT_PAGES + 200,
    );
    expect(folded(main, 'fold-0')).toBe(false);
    // The control: the same writes on a store with SQLite's bound fold inside a put.
    const other = join(dir, 'default.sqlite');
    const store = opened(other);
    for (let n = 0; n < count; n += 1) store.put(record(n));
    expect(folded(other, 'fold-0')).toBe(true);
  });

  it('past its bound main folds the log itself: it stops growing under constant writes', async () => {
    const dir = await testFolder('checkpoint');
    const file = join(dir, 'history.sqlite');
    const store = opened(file, 50);
    putUntilLogHolds(store, file, 50);
    const grown = logPages(file);
    for (let n = 10_000; n < 10_300; n += 1) store.put(record(n));
    expect(folded(file, 'fold-10000')).toBe(true);
    // Reused from its start after each fold: no larger than the bound and one put's pages.
    expect(logPages(file)).toBeLessThan(grown + 40);
  });

  it('the worker folds what main committed once writes pause', async () => {
    const { file, main } = await mainBesideWorker();
    main.put(record(1));
    expect(folded(file, 'fold-1')).toBe(false);
    await vi.waitFor(() => expect(folded(file, 'fold-1')).toBe(true), UNTIL);
  });

  it('the worker folds while writes never pause, at least every FOLD_WHILE_WRITING_MS', async () => {
    // The worker's looks on a manual clock: a commit between every two of them, so it never sees
    // the writes pause, and each look answered before the next commit.
    const clock = new MessageChannel();
    onTestFinished(() => clock.port1.close());
    const { file, main } = await mainBesideWorker(clock.port2);
    const look = async (now: number) => {
      const looked = once(clock.port1, 'message');
      clock.port1.postMessage({ now } satisfies ClockTick);
      const [answer] = (await looked) as [ClockLooked];
      expect(answer.looked).toBe(now);
    };
    let n = 0;
    for (let now = FOLD_LOOK_MS; now < FOLD_WHILE_WRITING_MS; now += FOLD_LOOK_MS) {
      main.put(record(n++));
      await look(now);
    }
    expect(folded(file, 'fold-0'), 'folded while writes went on, before the bound').toBe(false);
    main.put(record(n++));
    await look(FOLD_WHILE_WRITING_MS);
    expect(folded(file, 'fold-0'), 'folded at the bound, writes going on').toBe(true);
    expect(folded(file, `fold-${n - 1}`)).toBe(true);
  });

  it('a process killed between its commits and any fold loses none of them', async () => {
    const dir = await testFolder('checkpoint');
    const file = join(dir, 'history.sqlite');
    // The crash test's writer, its store opened as the app's main store is.
    const child = spawn(
      process.execPath,
      [...nodeEntryArgs('history-crash-worker'), dir, '0', 'main'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    onTestFinished(() => void child.kill('SIGKILL'));
    const printed: string[] = [];
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      printed.push(...lines.filter((line) => line !== 'ready'));
    });
    await vi.waitFor(() => expect(logPages(file)).toBeGreaterThan(SQLITE_DEFAULT_PAGES), UNTIL);
    // A fold at SQLite's bound would have ended well before another 100 commits.
    const past = printed.length + 100;
    await vi.waitFor(() => expect(printed.length).toBeGreaterThan(past), UNTIL);
    child.kill('SIGKILL');
    await once(child, 'close');
    const committed = new Map(printed.map((line) => line.split(' ') as [string, string]));
    const [firstId] = committed.keys();
    expect(folded(file, firstId!)).toBe(false);
    const store = opened(file);
    for (const [localId, polls] of committed)
      expect(store.get(localId)?.polls, localId).toBeGreaterThanOrEqual(Number(polls));
  });
});
