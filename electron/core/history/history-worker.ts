/**
 * The history worker: a thread of the app's process with its own HistoryStore on the same file
 * (SQLite serialises its writes with main's and every other process's), where the heavy writes
 * and sums run (history-worker-ops.ts) so main's event loop never waits on them. Main learns of
 * what it wrote through its change feed, as of another process's writes, and from the reply.
 *
 * Runs from its own bundle (dist-electron/history-worker.js, beside main.js) and, in tests and
 * `npm run cli`, from source with tsx's loader (history-port.ts starts it).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { UserFacingError } from '../errors';
import { HistoryStore } from './history-store';
import {
  callSchema,
  FOLD_LOOK_MS,
  FOLD_WHILE_WRITING_MS,
  type ClockLooked,
  type ClockTick,
  type HistoryCall,
  type HistoryReply,
} from './history-worker-protocol';
import { runHistoryOp } from './history-worker-ops';

interface HistoryWorkerData {
  readonly file: string;
  /**
   * Tests only: a write says it is half-way through its transaction (cell 1 set to 1) and waits
   * there until cell 0 is not 0; then, when a cell 2 is there and holds 1, it takes the 1 and the
   * worker ends on the spot, its transaction open (a crash in the middle of a write).
   */
  readonly gate?: SharedArrayBuffer;
  /** Tests only: the looks run when a time comes on this port, not on a timer (ClockTick). */
  readonly clock?: MessagePort;
}

const data = workerData as HistoryWorkerData;
const store = HistoryStore.open(data.file);
const gate = data.gate === undefined ? undefined : new Int32Array(data.gate);
const hold =
  gate &&
  (() => {
    Atomics.store(gate, 1, 1);
    Atomics.wait(gate, 0, 0);
    if (gate.length > 2 && Atomics.compareExchange(gate, 2, 1, 0) === 1) process.exit(1);
  });

function failed(id: number, error: unknown): HistoryReply {
  if (error instanceof UserFacingError) {
    return {
      type: 'failed',
      id,
      message: error.message,
      sentence: error.sentence,
      detail: error.detail,
    };
  }
  return {
    type: 'failed',
    id,
    message: null,
    detail: error instanceof Error ? error.message : String(error),
  };
}

function answer(call: HistoryCall): HistoryReply {
  try {
    // The envelope is checked; the arguments are main's own (the operations' types).
    const result = runHistoryOp(store, call.op, call.args as never, hold);
    return { type: 'done', id: call.id, result };
  } catch (error) {
    return failed(call.id, error);
  }
}

/**
 * How often the worker looks whether to fold the write-ahead log into the file (the timer waits
 * behind any call): every FOLD_LOOK_MS. Main's store leaves that to it up to a bound
 * (history-port.ts), so a user's write commits into the log and returns: at 100,000 records a fold
 * of SQLite's default 1,000 pages took 15 to 45 ms, inside every 130th put. The worker folds once a
 * look finds no commit since the last (a fold beside main's writes slows their syncs: the disk is
 * shared), and at least every FOLD_WHILE_WRITING_MS while they go on, so that what main folds at
 * its bound is what came after.
 */
let seenVersion = store.dataVersion();
/** The version at the last fold: an idle look with nothing committed since then has nothing to fold. */
let foldedVersion: number | null = null;
let foldedAt = data.clock === undefined ? performance.now() : 0;

function look(now: number): void {
  const version = store.dataVersion();
  const idle = version === seenVersion;
  seenVersion = version;
  if (idle && version === foldedVersion) return;
  if (!idle && now - foldedAt < FOLD_WHILE_WRITING_MS) return;
  foldedAt = now;
  foldedVersion = version;
  try {
    store.checkpoint();
  } catch {
    // Another connection folding the log right now: the rest waits for the next look.
  }
}

const { clock } = data;
if (clock === undefined) setInterval(() => look(performance.now()), FOLD_LOOK_MS).unref();
else {
  clock.on('message', ({ now }: ClockTick) => {
    look(now);
    clock.postMessage({ looked: now } satisfies ClockLooked);
  });
  clock.unref();
}

parentPort?.on('message', (message: unknown) => {
  const call = callSchema().safeParse(message);
  if (!call.success) return;
  parentPort?.postMessage(answer(call.data));
});
parentPort?.postMessage({ type: 'ready' } satisfies HistoryReply);
