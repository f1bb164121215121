/**
 * The main side of the answer worker (answer-worker.ts): the service client streams each answer's
 * body into it as it arrives, the pieces that arrive in one turn in one message (merged-pieces.ts),
 * and gets back what the answer was. The main thread only moves bytes; the worker bounds, parses,
 * reads, checks and decodes. Its bounds:
 *
 * - one worker per process, started with the first answer, ended after `idleMs` without one, and
 *   never keeping the process alive on its own (it is referenced only while it has work);
 * - time: once an answer has all arrived, the worker has `workMs` to say what it was; past that
 *   the worker is ended, whatever it was doing;
 * - a worker that crashed, ran out of memory or overran fails every answer it was reading with a
 *   sentence (the poll is asked again later, a submit is never sent again) and the next answer
 *   gets a new one; its heap is capped.
 */
import { clearTimeout, setTimeout } from 'node:timers';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type {
  AnswerOutcome,
  AnswerSpec,
  FromWorker,
  StatusSpec,
  ToWorker,
} from './answer-protocol';
import { raceAbort, streamBody, type BodyStream } from './http-response';
import { ServiceError } from './service-error';
import { sentenceFor, type ServiceOperation } from './status-errors';

export interface AnswerReaderOptions {
  /** The worker's script; by default answer-worker's, beside this module. */
  readonly workerUrl?: URL;
  /** How long the worker may take to say what an answer was, once it all arrived. Default 20 s. */
  readonly workMs?: number;
  /** The worker ends after this long without an answer to read. Default 30 s. */
  readonly idleMs?: number;
  /** How long a worker may take to start (load its code). Default 30 s. */
  readonly startMs?: number;
}

/** A body that did not all arrive: too large, or broken (the error says why). */
export type BodyTrouble = Extract<BodyStream, { outcome: 'too_large' | 'broken' }>;

/**
 * The worker stopped before it said what an answer was: the answer is lost, the task kept. Or it
 * could not start (`sent` false): nothing was sent.
 */
export function errorForReaderStopped(
  op: ServiceOperation,
  detail: string,
  sent = true,
): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: sentenceFor(
      op,
      'error.service.answerReaderStoppedSubmit',
      'error.service.answerReaderStoppedQuery',
    ),
    detail: `The answer reader ${detail}.`,
    mayHaveReachedService: sent,
  });
}

interface Job {
  readonly op: ServiceOperation;
  readonly resolve: (outcome: AnswerOutcome) => void;
  readonly reject: (error: unknown) => void;
  deadline?: NodeJS.Timeout;
}

interface Running {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
  /** Settles once the worker is loaded (or failed first). */
  readonly ready: Promise<void>;
  /** Fails `ready` (when it has not settled yet) with why the worker ended. */
  readonly failStart: (detail: string) => void;
  /** Whether it is loaded. */
  loaded: boolean;
}

function defaultWorkerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './answer-worker.ts' : './answer-worker.js', import.meta.url);
}

/**
 * A worker from source (tests, `npm run cli`) loads its TypeScript through tsx, as the process
 * that starts it does; a bundled one (the app, the bundled CLI) is plain JavaScript.
 */
function workerOptions(url: URL): WorkerOptions {
  // The stack answers of MAX_ANSWER_DEPTH levels were measured on (answer-limits.ts).
  const resourceLimits = { maxOldGenerationSizeMb: 512, stackSizeMb: 4 };
  const options: WorkerOptions = { resourceLimits };
  if (!url.pathname.endsWith('.ts')) return options;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { ...options, execArgv: ['--import', tsx] };
}

export class AnswerReader {
  readonly #url: URL;
  readonly #workMs: number;
  readonly #idleMs: number;
  readonly #startMs: number;
  #running: Running | null = null;
  #idle: NodeJS.Timeout | null = null;
  #nextId = 1;

  constructor(options: AnswerReaderOptions = {}) {
    this.#url = options.workerUrl ?? defaultWorkerUrl();
    this.#workMs = options.workMs ?? 20_000;
    this.#idleMs = options.idleMs ?? 30_000;
    this.#startMs = options.startMs ?? 30_000;
  }

  /**
   * Streams `response`'s body (at most `maxBodyBytes`, until `signals.body` aborts) into the
   * worker to be read as `spec` says, then waits for what it was (until `signals.reading` aborts).
   * @returns what the answer was, or why its body did not all arrive.
   * @throws ServiceError when the worker stopped; `signal`'s reason when it aborted.
   */
  async read(
    spec: AnswerSpec,
    response: Response,
    maxBodyBytes: number,
    signals: { readonly body: AbortSignal; readonly reading: AbortSignal | undefined },
  ): Promise<AnswerOutcome | BodyTrouble> {
    const { running, id, outcome } = this.#begin(spec.kind === 'submit' ? 'submit' : 'query');
    // Said before the body ended (a refusal, a status stream's end): the body is let go at once,
    // not at its next chunk, which a stream that stays open may never send.
    const said = new AbortController();
    let settled = false;
    const settle = (): void => {
      settled = true;
      said.abort();
    };
    outcome.then(settle, settle);
    this.#post(running, { type: 'start', id, spec });
    const body = AbortSignal.any([signals.body, said.signal]);
    const streamed = await streamBody(response, maxBodyBytes, body, (chunk) => {
      if (settled) return false;
      this.#move(running, id, chunk);
      return true;
    });
    if (!settled && (streamed.outcome === 'too_large' || streamed.outcome === 'broken')) {
      this.#forget(running, id, { type: 'cancel', id });
      return streamed;
    }
    if (streamed.outcome === 'complete') this.#post(running, { type: 'end', id });
    return this.#await(running, id, outcome, signals.reading);
  }

  /**
   * The error an error status's answer means (its body already read, at most the usual limit),
   * its body scrubbed of the key in the worker (until `signal` aborts).
   */
  async status(spec: StatusSpec, signal: AbortSignal | undefined): Promise<AnswerOutcome> {
    const { running, id, outcome } = this.#begin(spec.op);
    this.#post(running, { type: 'status', id, spec });
    return this.#await(running, id, outcome, signal);
  }

  /**
   * Resolves once a worker is loaded and reads answers (starting one if none is): a request is
   * only sent when its answer can be read, and the worker's start never counts against the
   * request's own time. Within `startMs`.
   * @throws ServiceError when no worker could start; `signal`'s reason when it aborted.
   */
  async ready(op: ServiceOperation, signal?: AbortSignal): Promise<void> {
    const running = this.#running ?? this.#start();
    if (running.loaded) return;
    running.worker.ref();
    const timer = setTimeout(() => {
      void this.#fail(running, `did not start within ${this.#startMs} ms`);
    }, this.#startMs);
    try {
      const started = running.ready.catch((detail: unknown) => {
        throw errorForReaderStopped(op, String(detail), false);
      });
      await (signal ? raceAbort(started, signal) : started);
    } finally {
      clearTimeout(timer);
      if (running.jobs.size === 0) this.#idleAfter(running);
    }
  }

  /** Ends the worker; answers being read fail. */
  async dispose(): Promise<void> {
    const running = this.#running;
    if (running) await this.#fail(running, 'was stopped');
  }

  #begin(op: ServiceOperation): { running: Running; id: number; outcome: Promise<AnswerOutcome> } {
    const running = this.#running ?? this.#start();
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    running.worker.ref();
    const id = this.#nextId++;
    const outcome = new Promise<AnswerOutcome>((resolve, reject) => {
      running.jobs.set(id, { op, resolve, reject });
    });
    // Observed by the caller's await; this keeps a job failed early from being "unhandled".
    outcome.catch(() => undefined);
    return { running, id, outcome };
  }

  /** The job's outcome, within `workMs` from now; a worker that overruns it is ended. */
  async #await(
    running: Running,
    id: number,
    outcome: Promise<AnswerOutcome>,
    signal: AbortSignal | undefined,
  ): Promise<AnswerOutcome> {
    const job = running.jobs.get(id);
    if (job) {
      job.deadline = setTimeout(() => {
        void this.#fail(running, `did not finish reading an answer within ${this.#workMs} ms`);
      }, this.#workMs);
    }
    try {
      return await (signal ? raceAbort(outcome, signal) : outcome);
    } catch (error) {
      if (signal?.aborted) this.#forget(running, id, { type: 'cancel', id });
      throw error;
    }
  }

  #start(): Running {
    const worker = new Worker(this.#url, workerOptions(this.#url));
    let loaded = (): void => undefined;
    let failStart = (_detail: string): void => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      loaded = resolve;
      failStart = reject;
    });
    ready.catch(() => undefined);
    const running: Running = { worker, jobs: new Map(), ready, failStart, loaded: false };
    worker.on('message', (message: FromWorker) => {
      if (message.type !== 'ready') return this.#settle(running, message);
      running.loaded = true;
      loaded();
    });
    // Kept for the worker's life: an 'error' with no listener would throw in this process.
    worker.on('error', (error) => void this.#fail(running, `failed (${error.message})`));
    worker.once('exit', (code) => void this.#fail(running, `ended (exit code ${code})`));
    this.#running = running;
    return running;
  }

  #settle(running: Running, message: Extract<FromWorker, { type: 'done' }>): void {
    const job = running.jobs.get(message.id);
    if (!job) return;
    this.#forget(running, message.id);
    job.resolve(message.outcome);
  }

  /** Drops a job (telling the worker, when `tell` says so), and idles a worker left without work. */
  #forget(running: Running, id: number, tell?: ToWorker): void {
    const job = running.jobs.get(id);
    if (job?.deadline) clearTimeout(job.deadline);
    running.jobs.delete(id);
    if (tell) this.#post(running, tell);
    if (running.jobs.size === 0) this.#idleAfter(running);
  }

  /** A worker without work no longer keeps the process alive, and ends after `idleMs`. */
  #idleAfter(running: Running): void {
    if (this.#running !== running) return;
    running.worker.unref();
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.#fail(running, 'was idle'), this.#idleMs);
    this.#idle.unref();
  }

  /**
   * Moves a chunk of a body to the worker: its own memory when the chunk is all of its buffer
   * (the fetch's chunks and the merged pieces are; nothing else holds them), else a copy (a view
   * into a buffer the transport may share). Nothing of a body stays on the main thread.
   */
  #move(running: Running, id: number, chunk: Uint8Array): void {
    const own = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    if (own && chunk.buffer instanceof ArrayBuffer) {
      try {
        this.#post(running, { type: 'chunk', id, bytes: chunk }, [chunk.buffer]);
        return;
      } catch {
        // A buffer Node will not let go of (its pool's): copied below.
      }
    }
    // A copy in memory of its own: a Buffer's slice() is a view of the same memory, and
    // transferring it would take the transport's buffer, or throw for Node's pool.
    const bytes = new Uint8Array(chunk);
    this.#post(running, { type: 'chunk', id, bytes }, [bytes.buffer]);
  }

  #post(running: Running, message: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (this.#running === running) running.worker.postMessage(message, transfer);
  }

  /** Ends `running`'s worker and fails every answer it was reading. */
  async #fail(running: Running, detail: string): Promise<void> {
    running.failStart(detail);
    if (this.#running === running) {
      this.#running = null;
      if (this.#idle) clearTimeout(this.#idle);
      this.#idle = null;
    }
    for (const [id, job] of running.jobs) {
      if (job.deadline) clearTimeout(job.deadline);
      running.jobs.delete(id);
      job.reject(errorForReaderStopped(job.op, detail));
    }
    await running.worker.terminate();
  }
}

let shared: AnswerReader | null = null;

/** The process's answer reader (one worker serves every service client). */
export function sharedAnswerReader(): AnswerReader {
  shared ??= new AnswerReader();
  return shared;
}
