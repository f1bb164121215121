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
}

export interface ImageWorkersOptions {
  /**
   * Worker threads at most. Default 1: sharp's WebAssembly build already does its work on threads
   * of its own, and a second worker measured no faster on 2 cores while it doubled the memory
   * (a second WebAssembly instance with its own threads; see docs/PERFORMANCE.md).
   */
  readonly size?: number;
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
}

interface Slot {
  worker: Worker | null;
  ready: Promise<void> | null;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

function defaultWorkerUrl(): URL {
  // From the bundle (dist-electron/main.js) the worker is its sibling bundle; from source, the .ts.
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './image-worker.ts' : './image-worker.js', import.meta.url);
}

export class ImageWorkers {
  private readonly size: number;
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
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl();
    this.idleMs = options.idleMs ?? 30_000;
    this.jobTimeoutMs = options.jobTimeoutMs ?? 60_000;
    this.slots = Array.from({ length: this.size }, () => ({
      worker: null,
      ready: null,
      job: null,
      timer: null,
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
      this.queue.push({ request, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  /** Ends every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0))
      job.reject(new ImageWorkerError('Image work was stopped.'));
    await Promise.all(this.slots.map((slot) => this.retire(slot, 'Image work was stopped.')));
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job) continue;
      const job = this.queue.shift();
      if (job) void this.start(slot, job);
    }
  }

  private async start(slot: Slot, job: Job): Promise<void> {
    slot.job = job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    try {
      await this.spawn(slot);
    } catch {
      // spawn() has marked the pool unavailable and failed every job, this one included.
      return;
    }
    const worker = slot.worker;
    if (!worker || slot.job !== job) return;
    const id = this.nextId++;
    worker.ref();
    slot.timer = setTimeout(() => {
      void this.retire(
        slot,
        `The image took longer than ${this.jobTimeoutMs / 1000} s to process.`,
      );
    }, this.jobTimeoutMs);
    const onMessage = (message: WorkerMessage) => {
      if ((message.type !== 'done' && message.type !== 'error') || message.id !== id) return;
      worker.off('message', onMessage);
      this.finish(slot, job);
      if (message.type === 'done') job.resolve(message.value);
      else job.reject(new Error(message.message));
    };
    worker.on('message', onMessage);
    worker.postMessage({ id, request: job.request });
  }

  private finish(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.worker?.unref();
    slot.timer = setTimeout(() => void this.retire(slot, null), this.idleMs);
    slot.timer.unref();
    this.pump();
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
        this.forget(slot, worker, `The image worker stopped unexpectedly (exit code ${code}).`);
      });
    });
    // A rejection is handled by start(); this keeps an unobserved one from being reported.
    slot.ready.catch(() => undefined);
    return slot.ready;
  }

  /** The worker is gone: its job (if any) fails and the slot starts afresh on the next job. */
  private forget(slot: Slot, worker: Worker, reason: string): void {
    if (slot.worker !== worker) return;
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job;
    Object.assign(slot, { worker: null, ready: null, job: null, timer: null });
    job?.reject(new ImageWorkerError(reason));
    this.pump();
  }

  private async retire(slot: Slot, reason: string | null): Promise<void> {
    const worker = slot.worker;
    if (!worker) return;
    this.forget(slot, worker, reason ?? 'The image worker was ended.');
    await worker.terminate();
  }

  private markUnavailable(reason: string): void {
    if (this.current.state === 'unavailable') return;
    this.current = { state: 'unavailable', reason };
    const error = new ImagesUnavailableError(reason);
    for (const slot of this.slots) {
      const job = slot.job;
      const worker = slot.worker;
      Object.assign(slot, { worker: null, ready: null, job: null, timer: null });
      job?.reject(error);
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
