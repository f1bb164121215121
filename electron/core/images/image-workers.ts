/**
 * The main side of the image worker (image-worker.ts): a small pool of worker threads, started
 * when the first image job arrives, each running one job at a time.
 *
 * - Nothing image-related loads at start-up: if sharp cannot load (a damaged install, a platform
 *   with no WebAssembly), the app still starts, and every job fails with
 *   {@link ImagesUnavailableError}; callers keep what they can (a download is still saved, with no
 *   thumbnail) and the user is told once (see `onUnavailable`).
 * - A worker that dies or overruns its time fails only its job; the next job gets a new worker.
 * - Idle workers end after a while, so the WebAssembly memory a large image needed (which never
 *   shrinks) goes back to the system; idle or not, they never keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import type { ImageRequest, WorkerMessage } from './image-protocol';

/** The image code could not be loaded in this process; nothing image-related will work. */
export class ImagesUnavailableError extends Error {
  override readonly name = 'ImagesUnavailableError';
}

/** One job failed for a reason of the worker (it crashed or took too long), not of the image. */
export class ImageWorkerError extends Error {
  override readonly name = 'ImageWorkerError';

  /** What happened to the work, for a sentence the user reads (the message is for the log). */
  constructor(
    message: string,
    readonly why: 'stopped' | 'timeout' | 'crashed',
  ) {
    super(message);
  }
}

export interface ImageWorkersOptions {
  /**
   * Worker threads at most. Default 1: sharp's WebAssembly build does its work on threads of its
   * own, and a second worker measured no faster on 2 cores while it doubled the memory (a second
   * WebAssembly instance with its own threads; see docs/PERFORMANCE.md).
   */
  readonly size?: number;
  /**
   * Jobs a worker holds at once. Default 2: while sharp works on one (on a thread of its own), the
   * worker's thread reads and inflates the next, so the two overlap (image-worker.ts runs one
   * WebAssembly job at a time).
   */
  readonly jobsPerWorker?: number;
  /** The worker script; default image-worker.js beside the bundle, or the .ts source. */
  readonly workerUrl?: URL;
  /** An idle worker ends after this long. Default 30 s. */
  readonly idleMs?: number;
  /** A job running longer than this ends its worker and fails. Default 60 s. */
  readonly jobTimeoutMs?: number;
}

export type ImageStatus =
  | { readonly state: 'not_loaded' }
  | { readonly state: 'ready'; readonly library: string }
  | { readonly state: 'unavailable'; readonly reason: string };

interface Job {
  readonly request: ImageRequest;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  /**
   * Set when the job was running beside another whose worker died or overran: it runs again, on
   * its own, so a failure then is its own.
   */
  alone: boolean;
}

type Ending =
  { readonly kind: 'crashed' | 'stopped'; readonly reason: string } | { readonly kind: 'retry' };

interface Slot {
  worker: Worker | null;
  ready: Promise<void> | null;
  /** The jobs the worker holds, by message id, each with its time limit. */
  readonly running: Map<number, { job: Job; timer: NodeJS.Timeout }>;
  /** Jobs handed to the slot while its worker is still loading. */
  starting: number;
  idle: NodeJS.Timeout | null;
}

function defaultWorkerUrl(): URL {
  // From the bundle (dist-electron/main.js) the worker is its sibling bundle; from source, the .ts.
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './image-worker.ts' : './image-worker.js', import.meta.url);
}

export class ImageWorkers {
  private readonly size: number;
  private readonly jobsPerWorker: number;
  private readonly workerUrl: URL;
  private readonly idleMs: number;
  private readonly jobTimeoutMs: number;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly unavailableListeners = new Set<(reason: string) => void>();
  private current: ImageStatus = { state: 'not_loaded' };
  private nextId = 1;

  constructor(options: ImageWorkersOptions = {}) {
    this.size = Math.max(1, options.size ?? 1);
    this.jobsPerWorker = Math.max(1, options.jobsPerWorker ?? 2);
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl();
    this.idleMs = options.idleMs ?? 30_000;
    this.jobTimeoutMs = options.jobTimeoutMs ?? 60_000;
    this.slots = Array.from({ length: this.size }, () => ({
      worker: null,
      ready: null,
      running: new Map(),
      starting: 0,
      idle: null,
    }));
  }

  status(): ImageStatus {
    return this.current;
  }

  /** Worker threads running now (idle ones included, until they end). */
  liveWorkers(): number {
    return this.slots.filter((slot) => slot.worker !== null).length;
  }

  /** Called once, when the image code turns out not to load. */
  onUnavailable(listener: (reason: string) => void): () => void {
    this.unavailableListeners.add(listener);
    if (this.current.state === 'unavailable') listener(this.current.reason);
    return () => this.unavailableListeners.delete(listener);
  }

  run<T>(request: ImageRequest): Promise<T> {
    if (this.current.state === 'unavailable') {
      return Promise.reject(new ImagesUnavailableError(this.current.reason));
    }
    return new Promise<T>((resolve, reject) => {
      const job = { request, resolve: resolve as (value: unknown) => void, reject, alone: false };
      this.queue.push(job);
      this.pump();
    });
  }

  /** Ends every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0))
      job.reject(new ImageWorkerError('Image work was stopped.', 'stopped'));
    const end: Ending = { kind: 'stopped', reason: 'Image work was stopped.' };
    await Promise.all(this.slots.map((slot) => this.retire(slot, end)));
  }

  private held(slot: Slot): number {
    return slot.running.size + slot.starting;
  }

  /** Hands queued jobs to workers, the least busy first, as long as one can take another. */
  private pump(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0];
      const slot = this.slots
        .filter((each) => this.canTake(each, next))
        .sort((a, b) => this.held(a) - this.held(b))[0];
      if (!next || !slot) return;
      this.queue.shift();
      void this.start(slot, next);
    }
  }

  private canTake(slot: Slot, job: Job | undefined): boolean {
    const held = this.held(slot);
    if (held >= this.jobsPerWorker) return false;
    // A job that must run alone waits for an empty worker, and then has it to itself.
    return held === 0 || !(job?.alone || this.holdsAlone(slot));
  }

  private holdsAlone(slot: Slot): boolean {
    return [...slot.running.values()].some(({ job }) => job.alone);
  }

  private async start(slot: Slot, job: Job): Promise<void> {
    slot.starting += 1;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    const ready = this.spawn(slot);
    try {
      await ready;
    } catch (error) {
      // spawn() has marked the pool unavailable and failed every job it held; this one too.
      job.reject(error instanceof Error ? error : new ImagesUnavailableError(String(error)));
      return;
    } finally {
      slot.starting -= 1;
    }
    const worker = slot.worker;
    if (!worker || slot.ready !== ready) {
      // The worker ended while this job waited for it: the job goes back to the queue.
      this.queue.unshift(job);
      this.pump();
      return;
    }
    const id = this.nextId++;
    worker.ref();
    const timer = setTimeout(() => {
      slot.running
        .get(id)
        ?.job.reject(
          new ImageWorkerError(
            `The image took longer than ${this.jobTimeoutMs / 1000} s to process.`,
            'timeout',
          ),
        );
      slot.running.delete(id);
      void this.retire(slot, { kind: 'retry' });
    }, this.jobTimeoutMs);
    slot.running.set(id, { job, timer });
    const onMessage = (message: WorkerMessage) => {
      if ((message.type !== 'done' && message.type !== 'error') || message.id !== id) return;
      worker.off('message', onMessage);
      if (!this.finish(slot, id)) return;
      if (message.type === 'done') job.resolve(message.value);
      else job.reject(new Error(message.message));
    };
    worker.on('message', onMessage);
    worker.postMessage({ id, request: job.request });
  }

  /** The job's answer came: true when it was still the slot's to answer. */
  private finish(slot: Slot, id: number): boolean {
    const entry = slot.running.get(id);
    if (!entry) return false;
    clearTimeout(entry.timer);
    slot.running.delete(id);
    if (this.held(slot) === 0) {
      slot.worker?.unref();
      slot.idle = setTimeout(() => void this.retire(slot, { kind: 'retry' }), this.idleMs);
      slot.idle.unref();
    }
    this.pump();
    return true;
  }

  /** Starts the slot's worker if it has none, and waits until sharp has loaded in it. */
  private spawn(slot: Slot): Promise<void> {
    if (slot.ready) return slot.ready;
    let worker: Worker;
    try {
      worker = new Worker(this.workerUrl);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.markUnavailable(reason);
      return Promise.reject(new ImagesUnavailableError(reason));
    }
    slot.worker = worker;
    slot.ready = new Promise<void>((resolve, reject) => {
      let loaded = false;
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          loaded = true;
          this.current = { state: 'ready', library: message.library };
          resolve();
        } else if (message.type === 'failed') {
          this.markUnavailable(message.reason);
          reject(new ImagesUnavailableError(message.reason));
        }
      });
      worker.on('error', (error) => {
        if (!loaded) {
          this.markUnavailable(error.message);
          reject(new ImagesUnavailableError(error.message));
        }
      });
      worker.on('exit', (code) => {
        if (!loaded) {
          this.markUnavailable(`The image worker stopped while loading (exit code ${code}).`);
          reject(new ImagesUnavailableError('The image worker stopped while loading.'));
          return;
        }
        this.forget(slot, worker, {
          kind: 'crashed',
          reason: `The image worker stopped unexpectedly (exit code ${code}).`,
        });
      });
    });
    // A rejection is handled by start(); this keeps an unobserved one from being reported.
    slot.ready.catch(() => undefined);
    return slot.ready;
  }

  /**
   * The worker is gone, and with it the jobs it held:
   * - `crashed`: it stopped by itself. A job it held alone fails; jobs it held together run
   *   again, each on its own, since which of them ended it is not known.
   * - `stopped`: the pool is closing; every job fails.
   * - `retry`: it was ended on purpose (another job overran); every job runs again.
   */
  private forget(slot: Slot, worker: Worker, end: Ending): void {
    if (slot.worker !== worker) return;
    if (slot.idle) clearTimeout(slot.idle);
    const held = [...slot.running.values()].map(({ job, timer }) => {
      clearTimeout(timer);
      return job;
    });
    slot.running.clear();
    Object.assign(slot, { worker: null, ready: null, idle: null });
    const retry: Job[] = [];
    for (const job of held) {
      if (end.kind === 'stopped') job.reject(new ImageWorkerError(end.reason, 'stopped'));
      else if (end.kind === 'retry') retry.push(job);
      else if (held.length === 1 || job.alone)
        job.reject(new ImageWorkerError(end.reason, 'crashed'));
      else retry.push(Object.assign(job, { alone: true }));
    }
    this.queue.unshift(...retry);
    if (end.kind !== 'stopped') this.pump();
  }

  /** Ends the slot's worker; what becomes of the jobs it holds is `end` (see forget). */
  private async retire(slot: Slot, end: Ending): Promise<void> {
    const worker = slot.worker;
    if (!worker) return;
    this.forget(slot, worker, end);
    await worker.terminate();
  }

  private markUnavailable(reason: string): void {
    if (this.current.state === 'unavailable') return;
    this.current = { state: 'unavailable', reason };
    const error = new ImagesUnavailableError(reason);
    for (const slot of this.slots) {
      const held = [...slot.running.values()];
      const worker = slot.worker;
      slot.running.clear();
      Object.assign(slot, { worker: null, ready: null });
      for (const { job, timer } of held) {
        clearTimeout(timer);
        job.reject(error);
      }
      void worker?.terminate();
    }
    for (const job of this.queue.splice(0)) job.reject(error);
    for (const listener of this.unavailableListeners) listener(reason);
  }
}

let shared: ImageWorkers | undefined;

/** The process's image workers (created on first use; nothing starts until a job arrives). */
export function imageWorkers(): ImageWorkers {
  shared ??= new ImageWorkers();
  return shared;
}
