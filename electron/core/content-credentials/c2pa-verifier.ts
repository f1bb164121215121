/**
 * The Content Credentials verifier of plain-Node hosts (and of the app when its sandboxed image
 * renderer cannot run the same library): worker threads (c2pa-worker.ts), each verifying one file
 * at a time, up to `maxWorkers` at once (the core's fair-verifier.ts decides whose file runs when;
 * past `maxWorkers`, files wait here in the order they came). Its bounds:
 *
 * - size: an image bigger than `maxBytes` is not sent to a worker (`unreadable`);
 * - time: a file not answered within `timeoutMs` ends its worker (`terminate`), whatever the
 *   WebAssembly code was doing, and answers `unreadable`; so does an abort; the next file gets a
 *   new worker;
 * - memory: each worker's JavaScript heap is capped, and a worker whose WebAssembly code trapped
 *   is replaced, so no state of a hostile file outlives it;
 * - idle: a worker ends after `idleMs` without work, and never keeps the process alive.
 */
import { clearTimeout, setTimeout } from 'node:timers';
import { Worker } from 'node:worker_threads';
import type {
  ContentCredentialVerifier,
  CredentialRequest,
  CredentialVerdict,
} from '../../ports/content-credential-verifier';
import type { Logger } from '../../ports/logger';
import { silentLogger } from '../../ports/logger';
import type { C2paMessage, C2paRequest, C2paWorkerData } from './c2pa-protocol';

/** The verifier itself cannot run (its library did not load); no file's fault. */
export class VerifierUnavailableError extends Error {
  override readonly name = 'VerifierUnavailableError';
}

export interface C2paVerifierOptions {
  /** PEM certificates a signer must chain to for "trusted" (trust-anchors.ts). */
  readonly trustAnchors: string;
  /** Default 64 MiB (the gallery's own image limit). */
  readonly maxBytes?: number;
  /** Default 20 s per file. */
  readonly timeoutMs?: number;
  /** Default 30 s. */
  readonly idleMs?: number;
  /** Files verified at once, each on its own worker. Default 2 (the fair verifier's services). */
  readonly maxWorkers?: number;
  readonly workerUrl?: URL;
  readonly logger?: Logger;
}

const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
const UNREADABLE: CredentialVerdict = { state: 'unreadable' };

function defaultWorkerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './c2pa-worker.ts' : './c2pa-worker.js', import.meta.url);
}

interface Running {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  /** Set while the worker waits for its next file. */
  idle: NodeJS.Timeout | null;
}

export class C2paVerifier implements ContentCredentialVerifier {
  private readonly options: Required<Omit<C2paVerifierOptions, 'workerUrl'>> & { workerUrl: URL };
  /** Every worker started and not ended; those waiting for a file are in `idle` too. */
  private readonly workers = new Set<Running>();
  private readonly idle: Running[] = [];
  /** Files being verified, and those waiting for a worker (in order). */
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;
  private disposed = false;

  constructor(options: C2paVerifierOptions) {
    this.options = {
      maxBytes: 64 * 1024 * 1024,
      timeoutMs: 20_000,
      idleMs: 30_000,
      maxWorkers: 2,
      logger: silentLogger,
      ...options,
      workerUrl: options.workerUrl ?? defaultWorkerUrl(),
    };
  }

  /** Verifies a file on a free worker; see the port for what it answers. */
  async verify(request: CredentialRequest): Promise<CredentialVerdict> {
    await this.turn(request.signal);
    try {
      return await this.verifyNow(request);
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all([...this.workers].map((running) => this.end(running)));
  }

  /** Resolves once fewer than `maxWorkers` files are being verified (and counts this one). */
  private async turn(signal: AbortSignal | undefined): Promise<void> {
    while (this.active >= Math.max(1, this.options.maxWorkers) && !this.disposed) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener('abort', wake);
          const index = this.waiting.indexOf(wake);
          if (index !== -1) this.waiting.splice(index, 1);
          resolve();
        };
        this.waiting.push(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
    this.active += 1;
  }

  private async verifyNow(request: CredentialRequest): Promise<CredentialVerdict> {
    if (this.disposed) throw new VerifierUnavailableError('The verifier was stopped.');
    request.signal?.throwIfAborted();
    if (request.bytes.length > this.options.maxBytes) return UNREADABLE;
    const running = this.take();
    await running.ready;
    // Aborted while the worker started: it is parked again, untouched.
    if (request.signal?.aborted) {
      this.park(running);
      request.signal.throwIfAborted();
    }
    const message: C2paRequest = {
      id: this.nextId++,
      bytes: request.bytes,
      mime: MIME[request.format],
    };
    let answer: Awaited<ReturnType<C2paVerifier['ask']>>;
    try {
      answer = await this.ask(running.worker, message, request.signal);
    } catch (error) {
      await this.end(running);
      throw error;
    }
    if (answer === 'timeout' || answer.trapped) {
      this.options.logger.warn('Content Credentials could not be read in time or safely.', {
        why: answer === 'timeout' ? 'timeout' : 'trapped',
        detail: answer === 'timeout' ? null : (answer.detail ?? null),
      });
      await this.end(running);
    } else this.park(running);
    return answer === 'timeout' ? UNREADABLE : answer.verdict;
  }

  /** An idle worker, or a new one. */
  private take(): Running {
    const running = this.idle.pop() ?? this.start();
    if (running.idle) clearTimeout(running.idle);
    running.idle = null;
    return running;
  }

  /** `running` waits for the next file, and ends after `idleMs` without one. */
  private park(running: Running): void {
    if (this.disposed || !this.workers.has(running)) return;
    running.idle = setTimeout(() => void this.end(running), this.options.idleMs).unref();
    this.idle.push(running);
  }

  /** The worker's answer to `message`, or `timeout` (the worker is then ended by the caller). */
  private ask(
    worker: Worker,
    message: C2paRequest,
    signal: AbortSignal | undefined,
  ): Promise<Extract<C2paMessage, { kind: 'verdict' }> | 'timeout'> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      const timer = setTimeout(() => {
        done();
        resolve('timeout');
      }, this.options.timeoutMs);
      const onMessage = (answer: C2paMessage) => {
        if (answer.kind !== 'verdict' || answer.id !== message.id) return;
        done();
        resolve(answer);
      };
      // A worker that died mid-file (out of memory, a crash) fails that file alone.
      const onExit = () => {
        done();
        resolve('timeout');
      };
      // The caller ends the worker.
      const onAbort = () => {
        done();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('Aborted.'));
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(message);
    });
  }

  private start(): Running {
    const data: C2paWorkerData = { trustAnchors: this.options.trustAnchors };
    const worker = new Worker(this.options.workerUrl, {
      workerData: data,
      // The JavaScript heap holds one file and the report; c2pa-rs's memory is its own.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: C2paMessage) => {
        if (message.kind === 'ready') resolve();
        if (message.kind === 'unavailable') reject(new VerifierUnavailableError(message.reason));
      };
      worker.on('message', onMessage);
      // Kept for the worker's life: an 'error' with no listener would throw in this process.
      worker.on('error', (error) => reject(new VerifierUnavailableError(error.message)));
      worker.once('exit', () => reject(new VerifierUnavailableError('The verifier ended.')));
    });
    const running: Running = { worker, ready, idle: null };
    // A start that fails leaves no worker behind: the next file tries again.
    ready.catch(() => void this.end(running));
    this.workers.add(running);
    return running;
  }

  private async end(running: Running): Promise<void> {
    if (running.idle) clearTimeout(running.idle);
    running.idle = null;
    const index = this.idle.indexOf(running);
    if (index !== -1) this.idle.splice(index, 1);
    if (!this.workers.delete(running)) return;
    await running.worker.terminate();
  }
}
