/**
 * The image renderer's page: it waits for the one MessagePort the preload hands over, then runs
 * each job it receives on a dedicated worker (decode-worker.ts), SVG jobs on itself
 * (svg-raster.ts), and answers on the port. A cancelled job's worker is ended, so a decode that
 * never finishes costs one worker, never the page.
 */
import {
  IMAGE_PORT_MESSAGE,
  PAGE_WORKER_BYTES_BUDGET,
  type ImageJob,
  type PageAnswer,
  type PageRequest,
} from '../../shared/image-renderer/protocol';
import type { WorkerReply } from './decode-worker';
import { rasterSvg } from './svg-raster';

/** Workers kept warm; more start when more jobs run at once (the main process bounds that). */
const WARM_WORKERS = 2;
const WORKER_URL = new URL('./decode-worker.js', import.meta.url);

interface Running {
  readonly worker: Worker;
  readonly job: ImageJob;
}

class JobRunner {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<number, Running>();

  constructor(private readonly port: MessagePort) {
    for (let i = 0; i < WARM_WORKERS; i += 1) this.idle.push(this.spawn());
  }

  handle(request: PageRequest): void {
    if (request.type === 'cancel') this.cancel(request.id);
    else if (request.type === 'svg') void rasterSvg(request).then((reply) => this.answer(reply));
    else this.start(request);
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL, { type: 'module' });
    worker.onmessage = (event: MessageEvent<WorkerReply>) => this.finished(worker, event.data);
    worker.onerror = () => this.broken(worker);
    return worker;
  }

  private start(job: ImageJob): void {
    if (this.running.has(job.id)) return;
    const worker = this.idle.pop() ?? this.spawn();
    this.running.set(job.id, { worker, job });
    worker.postMessage(job);
  }

  private finished(worker: Worker, { answer, bytesRead }: WorkerReply): void {
    if (answer.type === 'ready') return;
    const entry = this.running.get(answer.id);
    if (entry?.worker !== worker) return;
    this.running.delete(answer.id);
    // Past its budget the worker is replaced: see PAGE_WORKER_BYTES_BUDGET.
    if (bytesRead < PAGE_WORKER_BYTES_BUDGET) this.idle.push(worker);
    else {
      worker.terminate();
      this.idle.push(this.spawn());
    }
    this.answer(answer);
  }

  /** A worker that threw outside a job's own handling: its job fails, the worker is replaced. */
  private broken(worker: Worker): void {
    worker.terminate();
    for (const [id, entry] of this.running) {
      if (entry.worker !== worker) continue;
      this.running.delete(id);
      this.answer({ type: 'failed', id, detail: 'The decode worker stopped.' });
    }
    const index = this.idle.indexOf(worker);
    if (index !== -1) this.idle.splice(index, 1);
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
