/**
 * The Content Credentials verifier of plain-Node hosts (and of the app until its sandboxed image
 * renderer runs the same library): one worker thread (c2pa-worker.ts), started with the first
 * file, verifying one file at a time. Its bounds:
 *
 * - size: an image bigger than `maxBytes` is not sent to the worker (`unreadable`);
 * - time: a file not answered within `timeoutMs` ends the worker (`terminate`), whatever the
 *   WebAssembly code was doing, and answers `unreadable`; the next file gets a new worker;
 * - memory: the worker's JavaScript heap is capped, and a worker whose WebAssembly code trapped
 *   is replaced, so no state of a hostile file outlives it;
 * - idle: the worker ends after `idleMs` without work, and never keeps the process alive.
 */
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
}

export class C2paVerifier implements ContentCredentialVerifier {
  private readonly options: Required<Omit<C2paVerifierOptions, 'workerUrl'>> & { workerUrl: URL };
  private running: Running | null = null;
  private turn: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | null = null;
  private nextId = 1;
  private disposed = false;

  constructor(options: C2paVerifierOptions) {
    this.options = {
      maxBytes: 64 * 1024 * 1024,
      timeoutMs: 20_000,
      idleMs: 30_000,
      logger: silentLogger,
      ...options,
      workerUrl: options.workerUrl ?? defaultWorkerUrl(),
    };
  }

  /** Verifies files one after the other; see the port for what it answers. */
  verify(request: CredentialRequest): Promise<CredentialVerdict> {
    const result = this.turn.then(() => this.verifyNow(request));
    this.turn = result.catch(() => undefined);
    return result;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.stop();
  }

  private async verifyNow(request: CredentialRequest): Promise<CredentialVerdict> {
    if (this.disposed) throw new VerifierUnavailableError('The verifier was stopped.');
    request.signal?.throwIfAborted();
    if (request.bytes.length > this.options.maxBytes) return UNREADABLE;
    if (this.idle) clearTimeout(this.idle);
    const running = this.running ?? this.start();
    await running.ready;
    const message: C2paRequest = {
      id: this.nextId++,
      bytes: request.bytes,
      mime: MIME[request.format],
    };
    const answer = await this.ask(running.worker, message, request.signal);
    if (answer === 'timeout' || answer.trapped) {
      this.options.logger.warn('Content Credentials could not be read in time or safely.', {
        why: answer === 'timeout' ? 'timeout' : 'trapped',
        detail: answer === 'timeout' ? null : (answer.detail ?? null),
      });
      await this.stop();
    } else this.idle = setTimeout(() => void this.stop(), this.options.idleMs).unref();
    return answer === 'timeout' ? UNREADABLE : answer.verdict;
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
      const onAbort = () => {
        done();
        void this.stop();
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
    const running = { worker, ready };
    // A start that fails leaves no worker behind: the next file tries again.
    ready.catch(() => {
      if (this.running === running) this.running = null;
      void worker.terminate();
    });
    this.running = running;
    return running;
  }

  private async stop(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const running = this.running;
    this.running = null;
    if (running) await running.worker.terminate();
  }
}
