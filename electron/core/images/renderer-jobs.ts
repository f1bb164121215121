/**
 * The jobs of the Chromium image engine and the one renderer that runs them:
 *
 * - at most `maxInFlight` jobs at once (2: one per core here, and the page's warm workers);
 * - the renderer starts with the first job and closes after `idleMs` with nothing to do;
 * - each job has `jobTimeoutMs` from when it is sent; an overrun or an abort cancels it in the page
 *   (which ends its worker) and fails it (`timeout`, `stopped`);
 * - when the renderer dies or hangs, the jobs it held are sent again, each alone on a new
 *   renderer, since which of them ended it is not known; a job that was alone fails (`crashed`);
 * - every answer is parsed (renderer-answers.ts); one that does not parse ends the renderer as a
 *   crash would.
 */
import type { ImageJob } from '../../../shared/image-renderer/protocol';
import type { Clock, TimerHandle } from '../../ports/clock';
import { ImageEngineError } from '../../ports/image-engine';
import type { ImageRendererConnection, ImageRendererHost } from '../../ports/image-renderer-host';
import { silentLogger, type Logger } from '../../ports/logger';
import { messageOf } from '../errors';
import type { ImageJobSources, JobSource, RegisteredSource } from './image-job-sources';
import { parseRendererAnswer, type JobAnswer } from './renderer-answers';

export interface RendererJobsOptions {
  readonly host: ImageRendererHost;
  readonly sources: ImageJobSources;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Jobs sent to the renderer at once. Default 2. */
  readonly maxInFlight?: number;
  /** A job not answered this long after it was sent fails with `timeout`. Default 30 s. */
  readonly jobTimeoutMs?: number;
  /** A renderer whose page is not ready this long after it started is given up. Default 20 s. */
  readonly startTimeoutMs?: number;
  /** The renderer closes after this long with no job. Default 60 s. */
  readonly idleMs?: number;
}

/** One job: its bytes, the request to send, and what its answer means. */
export interface RendererJobSpec<T> {
  readonly source: JobSource;
  readonly request: (id: number, url: string) => ImageJob;
  /** The result of an answer to this job; throws to fail it. */
  readonly settle: (answer: JobAnswer) => T;
  readonly signal?: AbortSignal;
  /** This job's own time limit, instead of the engine's `jobTimeoutMs`. */
  readonly timeoutMs?: number;
}

interface Job {
  readonly id: number;
  readonly spec: RendererJobSpec<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  /** Sent again after a crash it shared with other jobs: it runs with no other job beside it. */
  alone: boolean;
  timer: TimerHandle | null;
  /** Its bytes' registration, while it is sent and unanswered. */
  source: RegisteredSource | null;
  /** Stops listening to the job's abort signal. */
  detach: () => void;
}

interface Renderer {
  connection: ImageRendererConnection | null;
  ready: boolean;
  startTimer: TimerHandle | null;
  readonly waiting: {
    resolve: (connection: ImageRendererConnection) => void;
    reject: (error: Error) => void;
  }[];
}

const stopped = () => new ImageEngineError('The image work was stopped.', 'stopped');

export class RendererJobs {
  private readonly queue: Job[] = [];
  private readonly inFlight = new Map<number, Job>();
  private renderer: Renderer | null = null;
  private idleTimer: TimerHandle | null = null;
  private nextId = 1;
  private disposed = false;
  private readonly logger: Logger;
  private readonly maxInFlight: number;

  constructor(private readonly options: RendererJobsOptions) {
    this.logger = options.logger ?? silentLogger;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 2);
  }

  /** Whether a renderer is running or starting now. */
  get running(): boolean {
    return this.renderer !== null;
  }

  run<T>(spec: RendererJobSpec<T>): Promise<T> {
    if (this.disposed || spec.signal?.aborted) return Promise.reject(stopped());
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        spec,
        resolve: resolve as (value: unknown) => void,
        reject,
        alone: false,
        timer: null,
        source: null,
        detach: () => undefined,
      };
      const { signal } = spec;
      if (signal) {
        const onAbort = () => this.abort(job);
        signal.addEventListener('abort', onAbort, { once: true });
        job.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Fails every job (`stopped`) and closes the renderer. */
  dispose(): void {
    this.disposed = true;
    for (const job of [...this.queue.splice(0), ...this.inFlight.values()]) {
      this.finish(job);
      job.reject(stopped());
    }
    this.closeRenderer();
  }

  private pump(): void {
    while (!this.disposed && this.queue.length > 0) {
      const next = this.queue[0];
      if (!next || !this.canStart(next)) break;
      this.queue.shift();
      void this.send(next);
    }
    this.armIdle();
  }

  private canStart(job: Job): boolean {
    if (this.inFlight.size >= this.maxInFlight) return false;
    if ([...this.inFlight.values()].some((running) => running.alone)) return false;
    return !job.alone || this.inFlight.size === 0;
  }

  private async send(job: Job): Promise<void> {
    this.inFlight.set(job.id, job);
    let connection: ImageRendererConnection;
    try {
      connection = await this.connect();
    } catch (error) {
      if (this.inFlight.get(job.id) !== job) return;
      this.finish(job);
      job.reject(error instanceof Error ? error : new Error(String(error)));
      this.pump();
      return;
    }
    // Aborted while the renderer started.
    if (this.inFlight.get(job.id) !== job) return;
    job.source = this.options.sources.register(job.spec.source);
    job.timer = this.options.clock.setTimeout(
      () => this.timedOut(job),
      job.spec.timeoutMs ?? this.options.jobTimeoutMs ?? 30_000,
    );
    connection.post(job.spec.request(job.id, this.options.host.sourceUrl(job.source.token)));
  }

  /** The running renderer once its page is ready, starting one if there is none. */
  private connect(): Promise<ImageRendererConnection> {
    const renderer = this.renderer ?? this.startRenderer();
    if (renderer.ready && renderer.connection) return Promise.resolve(renderer.connection);
    return new Promise((resolve, reject) => renderer.waiting.push({ resolve, reject }));
  }

  private startRenderer(): Renderer {
    const renderer: Renderer = { connection: null, ready: false, startTimer: null, waiting: [] };
    this.renderer = renderer;
    renderer.startTimer = this.options.clock.setTimeout(
      () => this.startFailed(renderer, 'The image renderer did not start in time.'),
      this.options.startTimeoutMs ?? 20_000,
    );
    this.options.host
      .start({
        answer: (message) => this.answered(renderer, message),
        gone: (reason) => this.gone(renderer, reason),
      })
      .then(
        (connection) => {
          if (this.renderer !== renderer) connection.close();
          else {
            renderer.connection = connection;
            this.becameReady(renderer);
          }
        },
        (error: unknown) => this.startFailed(renderer, messageOf(error)),
      );
    return renderer;
  }

  /** Ready once the host connected and the page said so, in either order. */
  private becameReady(renderer: Renderer): void {
    const { connection } = renderer;
    if (!renderer.ready || !connection) return;
    this.clearTimer(renderer.startTimer);
    renderer.startTimer = null;
    for (const waiter of renderer.waiting.splice(0)) waiter.resolve(connection);
  }

  private startFailed(renderer: Renderer, reason: string): void {
    if (this.renderer !== renderer) return;
    this.logger.warn('image renderer could not start', { reason });
    this.renderer = null;
    this.clearTimer(renderer.startTimer);
    renderer.connection?.close();
    const error = new ImageEngineError(
      `The image renderer could not start: ${reason}`,
      'unavailable',
    );
    for (const waiter of renderer.waiting.splice(0)) waiter.reject(error);
  }

  private answered(renderer: Renderer, message: unknown): void {
    if (this.renderer !== renderer) return;
    const answer = parseRendererAnswer(message);
    if (!answer) {
      renderer.connection?.close();
      this.gone(renderer, 'it sent a message that is not an answer');
      return;
    }
    if (answer.type === 'ready') {
      renderer.ready = true;
      this.becameReady(renderer);
      return;
    }
    const job = this.inFlight.get(answer.id);
    // A late answer to a job that timed out or was aborted: nobody waits for it.
    if (!job?.source) return;
    // The page is done with the job's bytes: its body's buffers may be read into again.
    job.source.answered();
    this.finish(job);
    try {
      job.resolve(job.spec.settle(answer));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.pump();
  }

  /** The renderer died or hung: see the file's comment. */
  private gone(renderer: Renderer, reason: string): void {
    if (this.renderer !== renderer) return;
    if (!renderer.ready) {
      this.startFailed(renderer, `it stopped while starting (${reason})`);
      return;
    }
    this.renderer = null;
    const held = [...this.inFlight.values()];
    this.logger.warn('image renderer gone', { reason, jobs: held.length });
    const again: Job[] = [];
    for (const job of held) {
      this.release(job);
      if (held.length === 1 || job.alone) {
        job.detach();
        job.reject(new ImageEngineError(`The image renderer stopped: ${reason}.`, 'crashed'));
      } else {
        job.alone = true;
        again.push(job);
      }
    }
    this.queue.unshift(...again);
    this.pump();
  }

  private timedOut(job: Job): void {
    if (this.inFlight.get(job.id) !== job) return;
    this.logger.warn('image job timed out', { job: job.id });
    this.cancel(job, new ImageEngineError('The image took too long to decode.', 'timeout'));
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      job.detach();
      job.reject(stopped());
    } else if (this.inFlight.get(job.id) === job) this.cancel(job, stopped());
  }

  private cancel(job: Job, error: ImageEngineError): void {
    const sent = job.source !== null;
    this.finish(job);
    if (sent) this.renderer?.connection?.post({ type: 'cancel', id: job.id });
    job.reject(error);
    this.pump();
  }

  /** The job holds no slot, no timer and no token (it may still be sent again). */
  private release(job: Job): void {
    if (this.inFlight.get(job.id) === job) this.inFlight.delete(job.id);
    this.clearTimer(job.timer);
    job.timer = null;
    job.source?.release();
    job.source = null;
  }

  /** The job is over: released, and its abort signal no longer heard. */
  private finish(job: Job): void {
    this.release(job);
    job.detach();
  }

  private armIdle(): void {
    this.clearTimer(this.idleTimer);
    this.idleTimer = null;
    if (!this.renderer || this.inFlight.size > 0 || this.queue.length > 0) return;
    this.idleTimer = this.options.clock.setTimeout(
      () => this.closeRenderer(),
      this.options.idleMs ?? 60_000,
    );
  }

  private closeRenderer(): void {
    this.clearTimer(this.idleTimer);
    this.idleTimer = null;
    const renderer = this.renderer;
    this.renderer = null;
    if (!renderer) return;
    this.clearTimer(renderer.startTimer);
    renderer.connection?.close();
    for (const waiter of renderer.waiting.splice(0)) waiter.reject(stopped());
  }

  private clearTimer(timer: TimerHandle | null): void {
    if (timer) this.options.clock.clearTimeout(timer);
  }
}
