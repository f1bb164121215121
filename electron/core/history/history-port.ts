/**
 * Main's side of the history worker (history-worker.ts): the heavy operations of the history
 * (history-worker-ops.ts) as promises, so main's event loop goes on while SQLite works. One
 * worker per port, started with the first call; calls run one after another in the worker, in the
 * order made. A HistoryError thrown there is thrown here with the same sentence; a worker that
 * crashed or was ended fails the calls it had (its transaction rolled back: nothing of them is
 * written) and the next call starts a new one. `dispose` ends it (the core's disposables) for
 * good: a call made after it (a background read's next slice, as the core closes) fails at once
 * and starts no worker, which would open the file again after its owner closed it.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { MessagePort, Worker, WorkerOptions } from 'node:worker_threads';
import { sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import { HistoryError } from './history-error';
import { HistoryStore } from './history-store';
import { runHistoryOp } from './history-worker-ops';
import {
  replySchema,
  type HistoryCall,
  type HistoryOp,
  type HistoryOps,
  type HistoryReply,
} from './history-worker-protocol';

export interface HistoryPortOptions {
  /** The worker's script; by default history-worker's, beside this module. */
  readonly workerUrl?: URL;
  /** Tests only: each write waits half-way through its transaction until the cell is not 0. */
  readonly gate?: SharedArrayBuffer;
  /**
   * Tests only: the worker's looks for a fold run when a time is posted on this port, from 0, not
   * on its timer (history-worker-protocol.ts, ClockTick); each answers the time it looked at. The
   * port goes to the first worker started, for its life.
   */
  readonly clock?: MessagePort;
  /**
   * Run the operations on this thread, on a store of the port's own on the same file (opened at
   * the first call, as the worker opens one): for a host with no event loop to keep free (the
   * CLI), where starting a thread (a second isolate loading the history's modules) costs more
   * CPU than a one-record command's whole write. What is written, and what main's store learns
   * of it, is the worker's; only the waiting differs.
   */
  readonly inThread?: boolean;
}

/**
 * The newest tasks whose triage rows {@link HistoryPort.warm} has the worker read: some thousands
 * of images, the grid's first screens many times over (a rating of its newest 10,000 images is
 * about 4,000 tasks); some milliseconds of the worker's time.
 */
const WARM_TASKS = 2_000;

/**
 * The write-ahead log's size, in pages, past which main's store folds it into the file itself
 * while a worker runs: the worker folds it while idle (history-worker.ts), so this is the bound
 * for a worker busy for long or gone, ten times SQLite's default (about 40 MB of log).
 */
export const MAIN_CHECKPOINT_PAST = 10_000;

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface Running {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
}

function defaultWorkerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './history-worker.ts' : './history-worker.js', import.meta.url);
}

/** A worker from source (tests, `npm run cli`) loads its TypeScript through tsx. */
function workerOptions(url: URL, workerData: object): WorkerOptions {
  if (!url.pathname.endsWith('.ts')) return { workerData };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { workerData, execArgv: ['--import', tsx] };
}

/** The error a call gets when the worker ended before it answered. */
function stopped(detail: string): HistoryError {
  return new HistoryError(sentence('error.library.historyWriteFailed'), {
    detail: `The history worker ${detail}.`,
  });
}

export class HistoryPort {
  readonly #url: URL;
  #running: Running | null = null;
  #nextId = 1;
  /** {@link HistoryPortOptions.inThread}: the port's own store, once a call opened it. */
  #store: HistoryStore | null = null;
  /** Set by {@link dispose}: no call runs after it. */
  #disposed = false;

  constructor(
    /** The history file its worker opens. */
    readonly file: string,
    private readonly options: HistoryPortOptions = {},
  ) {
    this.#url = options.workerUrl ?? defaultWorkerUrl();
  }

  /**
   * The `checkpointPast` of main's store on this file (HistoryStore options): with a worker, the
   * bound above which main folds the log itself; on this thread (`inThread`) SQLite's default.
   */
  get mainCheckpointPast(): number | undefined {
    return this.options.inThread ? undefined : MAIN_CHECKPOINT_PAST;
  }

  /** Runs `op` in the worker; rejects with the HistoryError it threw, or when the worker ended. */
  call<K extends HistoryOp>(op: K, args: HistoryOps[K]['args']): Promise<HistoryOps[K]['result']> {
    if (this.#disposed) return Promise.reject(stopped('was stopped'));
    if (this.options.inThread) return this.#callHere(op, args);
    const running = this.#running ?? this.#start();
    running.worker.ref();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      running.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      const message: HistoryCall = { type: 'call', id, op, args: args as Record<string, unknown> };
      try {
        running.worker.postMessage(message);
      } catch (error) {
        // Arguments that cannot be copied to the worker: this call fails, the worker goes on.
        running.pending.delete(id);
        throw error;
      }
    });
  }

  /**
   * Starts the worker now and has it ready its store for the first triage write (HistoryStore
   * `warmTriage` over the newest {@link WARM_TASKS} tasks): the core asks it as the library
   * opens, so the first change the user makes pays neither the thread's start (its modules
   * loaded, the file opened) nor a cold write; main's loop only posts the call. Resolves with the
   * tasks it read once it has; never rejects (0: a worker that failed is started again by the
   * next call). On this thread (`inThread`: a one-command host) nothing is started: 0 at once.
   */
  async warm(): Promise<number> {
    if (this.options.inThread) return 0;
    try {
      return (await this.call('warm', { tasks: WARM_TASKS })).tasks;
    } catch {
      // The next call starts a new worker, and fails with the reason if it lasts.
      return 0;
    }
  }

  /**
   * {@link call} on this thread: the arguments and the result copied as a message would copy
   * them, an error turned into the one the worker's reply would make.
   */
  async #callHere<K extends HistoryOp>(
    op: K,
    args: HistoryOps[K]['args'],
  ): Promise<HistoryOps[K]['result']> {
    await Promise.resolve();
    if (this.#disposed) throw stopped('was stopped');
    try {
      this.#store ??= HistoryStore.open(this.file);
      return structuredClone(runHistoryOp(this.#store, op, structuredClone(args)));
    } catch (error) {
      if (!(error instanceof UserFacingError)) {
        throw stopped(`failed (${error instanceof Error ? error.message : String(error)})`);
      }
      throw new HistoryError(error.sentence ?? error.message, { detail: error.detail });
    }
  }

  /** Ends the worker (or closes the port's own store); calls it had, and any made after, fail. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#store?.close();
    this.#store = null;
    const running = this.#running;
    if (!running) return;
    this.#end(running, 'was stopped');
    await running.worker.terminate();
  }

  #start(): Running {
    const { gate, clock } = this.options;
    const data = {
      file: this.file,
      ...(gate === undefined ? {} : { gate }),
      ...(clock === undefined ? {} : { clock }),
    };
    // node:worker_threads loaded here: a port that runs in its own thread (the CLI's) never loads it.
    const { Worker: Thread } = process.getBuiltinModule('node:worker_threads');
    const options = workerOptions(this.#url, data);
    const worker = new Thread(
      this.#url,
      clock === undefined ? options : { ...options, transferList: [clock] },
    );
    const running: Running = { worker, pending: new Map() };
    worker.on('message', (message: unknown) => this.#settle(running, message));
    // Kept for the worker's life: an 'error' with no listener would throw in this process.
    worker.on('error', (error) => this.#end(running, `failed (${error.message})`));
    worker.once('exit', (code) => this.#end(running, `ended (exit code ${String(code)})`));
    worker.unref();
    this.#running = running;
    return running;
  }

  #settle(running: Running, message: unknown): void {
    const reply = replySchema().safeParse(message);
    if (!reply.success) return this.#end(running, 'sent a message that is not a reply');
    if (reply.data.type === 'ready') return;
    const job = running.pending.get(reply.data.id);
    if (!job) return;
    running.pending.delete(reply.data.id);
    if (running.pending.size === 0) running.worker.unref();
    if (reply.data.type === 'done') job.resolve(reply.data.result);
    else job.reject(errorOf(reply.data));
  }

  /** Forgets `running` (the next call starts a new worker) and fails what it had. */
  #end(running: Running, detail: string): void {
    if (this.#running === running) this.#running = null;
    const jobs = [...running.pending.values()];
    running.pending.clear();
    for (const job of jobs) job.reject(stopped(detail));
  }
}

function errorOf(reply: Extract<HistoryReply, { type: 'failed' }>): HistoryError {
  const { message, detail } = reply;
  if (message === null) return stopped(`failed (${detail ?? 'no detail'})`);
  return new HistoryError(reply.sentence ?? message, { detail });
}
