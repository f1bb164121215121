/**
 * A scripted image renderer host for the Chromium engine's core (RendererJobs): each `start`
 * records a renderer whose page the test drives — says ready, answers, crashes — and what the
 * engine posted to it.
 */
import type { ImageJob, PageRequest } from '../../shared/image-renderer/protocol';
import type {
  ImageRendererConnection,
  ImageRendererEvents,
  ImageRendererHost,
} from '../../electron/ports/image-renderer-host';

export class FakeRenderer implements ImageRendererConnection {
  readonly posted: PageRequest[] = [];
  closed = false;

  constructor(private readonly events: ImageRendererEvents) {}

  post(request: PageRequest): void {
    if (this.closed) throw new Error('posted to a closed renderer');
    this.posted.push(request);
  }

  close(): void {
    this.closed = true;
  }

  /** The jobs posted so far (not the cancels). */
  jobs(): ImageJob[] {
    return this.posted.filter((request): request is ImageJob => request.type !== 'cancel');
  }

  /** Ids of the jobs posted and not yet answered or cancelled here. */
  cancels(): number[] {
    return this.posted.flatMap((request) => (request.type === 'cancel' ? [request.id] : []));
  }

  ready(): void {
    this.events.answer({ type: 'ready' });
  }

  answer(message: unknown): void {
    this.events.answer(message);
  }

  /** The page's answer to `job`: a 1×1-pixel-sized WebP-ish payload at the job's oriented size. */
  thumbnail(job: ImageJob, webp = new Uint8Array([82, 73, 70, 70])): void {
    if (job.type !== 'thumbnail') throw new Error(`not a thumbnail job: ${job.type}`);
    const { orientedWidth: width, orientedHeight: height } = job;
    this.answer({ type: 'thumbnail', id: job.id, width, height, webp });
  }

  crash(reason = 'crashed'): void {
    this.events.gone(reason);
  }
}

export class FakeRendererHost implements ImageRendererHost {
  readonly renderers: FakeRenderer[] = [];
  /** When set, `start` rejects with this message. */
  failStart: string | null = null;
  /** When true, each renderer says ready as soon as it starts. */
  autoReady = true;

  sourceUrl(token: string): string {
    return `test-image://job/${token}`;
  }

  async start(events: ImageRendererEvents): Promise<ImageRendererConnection> {
    if (this.failStart !== null) throw new Error(this.failStart);
    const renderer = new FakeRenderer(events);
    this.renderers.push(renderer);
    if (this.autoReady) queueMicrotask(() => renderer.ready());
    return renderer;
  }

  /** The last renderer started. */
  get current(): FakeRenderer {
    const renderer = this.renderers[this.renderers.length - 1];
    if (!renderer) throw new Error('no renderer started');
    return renderer;
  }
}
