/**
 * The image renderer's page: it waits for the one MessagePort the preload hands over, then runs
 * each job it receives on a dedicated worker (decode-worker.ts; c2pa-worker.ts for Content
 * Credentials), SVG jobs on itself (svg-raster.ts), and answers on the port. A cancelled job's worker is ended, so a decode that
 * never finishes costs one worker, never the page.
 */
import {
  IMAGE_PORT_MESSAGE,
  PAGE_WORKER_BYTES_BUDGET,
  type ImageJob,
  type PageAnswer,
  type PageRequest,
} from '../../shared/image-renderer/protocol';
import type { C2paWorkerReply } from './c2pa-worker';
import type { ThumbnailBitmap } from './decode';
import type { WorkerReply } from './decode-worker';
import { rasterSvg } from './svg-raster';
import { thumbnailWebp } from './encode-thumbnail';

/** Decode workers kept warm; more start when more jobs run at once (the main process bounds that). */
const WARM_WORKERS = 2;
const DECODE_WORKER_URL = new URL('./decode-worker.js', import.meta.url);
/** Content Credentials workers start with the first verify job (their module is 9 MB). */
const C2PA_WORKER_URL = new URL('./c2pa-worker.js', import.meta.url);

type Pool = 'decode' | 'c2pa';
type Reply = WorkerReply | C2paWorkerReply;

interface Running {
  readonly worker: Worker;
  readonly pool: Pool;
}

class JobRunner {
  private readonly idle: Record<Pool, Worker[]> = { decode: [], c2pa: [] };
  private readonly running = new Map<number, Running>();

  constructor(private readonly port: MessagePort) {
    for (let i = 0; i < WARM_WORKERS; i += 1) this.idle.decode.push(this.spawn('decode'));
  }

  handle(request: PageRequest): void {
    if (request.type === 'cancel') this.cancel(request.id);
    else if (request.type === 'svg') void rasterSvg(request).then((reply) => this.answer(reply));
    else this.start(request, request.type === 'verify' ? 'c2pa' : 'decode');
  }

  private spawn(pool: Pool): Worker {
    const url = pool === 'c2pa' ? C2PA_WORKER_URL : DECODE_WORKER_URL;
    const worker = new Worker(url, { type: 'module' });
    worker.onmessage = (event: MessageEvent<Reply>) => this.finished(worker, event.data);
    worker.onerror = () => this.broken(worker);
    return worker;
  }

  private start(job: ImageJob, pool: Pool): void {
    if (this.running.has(job.id)) return;
    const worker = this.idle[pool].pop() ?? this.spawn(pool);
    this.running.set(job.id, { worker, pool });
    worker.postMessage(job);
  }

  private finished(worker: Worker, reply: Reply): void {
    const id = 'thumbnail' in reply ? reply.thumbnail.id : answerId(reply.answer);
    const entry = id === null ? undefined : this.running.get(id);
    if (id === null || entry?.worker !== worker) {
      if ('thumbnail' in reply) reply.thumbnail.fitted.close();
      return;
    }
    this.running.delete(id);
    const { heldBytes } = reply;
    // Past its budget the worker is replaced (see PAGE_WORKER_BYTES_BUDGET), and a Content
    // Credentials worker whose WebAssembly code trapped is never used again.
    const retire = 'retire' in reply && reply.retire;
    if (heldBytes < PAGE_WORKER_BYTES_BUDGET && !retire) this.idle[entry.pool].push(worker);
    else {
      worker.terminate();
      if (entry.pool === 'decode') this.idle.decode.push(this.spawn('decode'));
    }
    this.answer('thumbnail' in reply ? encoded(reply.thumbnail) : reply.answer);
  }

  /** A worker that threw outside a job's own handling: its job fails, the worker is replaced. */
  private broken(worker: Worker): void {
    worker.terminate();
    for (const [id, entry] of this.running) {
      if (entry.worker !== worker) continue;
      this.running.delete(id);
      this.answer({ type: 'failed', id, detail: 'The worker stopped.' });
    }
    for (const pool of Object.values(this.idle)) {
      const index = pool.indexOf(worker);
      if (index !== -1) pool.splice(index, 1);
    }
  }

  private cancel(id: number): void {
    const entry = this.running.get(id);
    if (!entry) return;
    this.running.delete(id);
    entry.worker.terminate();
  }

  /** Cloned, not transferred: see PageAnswer. */
  private answer(reply: PageAnswer): void {
    this.port.postMessage(reply);
  }
}

/** The job an answer is to; null for `ready`. */
function answerId(answer: PageAnswer): number | null {
  return answer.type === 'ready' ? null : answer.id;
}

/** A thumbnail job's answer: its bitmap encoded here (encode-thumbnail.ts). */
function encoded(made: ThumbnailBitmap): PageAnswer {
  const { id, width, height, fitted } = made;
  try {
    return { type: 'thumbnail', id, width, height, webp: thumbnailWebp(fitted) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'The thumbnail was not encoded.';
    return { type: 'failed', id, detail };
  }
}

function isPortHandOver(event: MessageEvent): boolean {
  return (
    event.source === window &&
    event.origin === window.location.origin &&
    event.data === IMAGE_PORT_MESSAGE &&
    event.ports.length === 1
  );
}

/** Takes the first port handed over and ignores every later message. */
function waitForPort(): void {
  const take = (event: MessageEvent) => {
    if (!isPortHandOver(event)) return;
    window.removeEventListener('message', take);
    const port = event.ports[0] as MessagePort;
    const runner = new JobRunner(port);
    port.onmessage = (message: MessageEvent<PageRequest>) => runner.handle(message.data);
    port.postMessage({ type: 'ready' } satisfies PageAnswer);
  };
  window.addEventListener('message', take);
}

waitForPort();
