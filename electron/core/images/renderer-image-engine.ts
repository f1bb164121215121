/**
 * The `chromium` image engine: Chromium's own codecs, in the image renderer's page
 * (electron/image-renderer), run by {@link RendererJobs} on whatever host starts that page — a
 * hidden sandboxed window in the app (adapters/chromium-image-engine.ts), Debian's Chromium in
 * tests and the bench. Each job's bytes go to the page through a one-time address
 * (image-job-sources.ts), never through the main process's memory as a whole.
 */
import type { JobAnswer } from './renderer-answers';
import { RendererJobs, type RendererJobSpec, type RendererJobsOptions } from './renderer-jobs';
import { ImageJobSources } from './image-job-sources';
import {
  ImageEngineError,
  type ImageEngine,
  type ThumbnailAnswer,
  type ThumbnailRequest,
} from '../../ports/image-engine';

export interface RendererImageEngineOptions extends Omit<RendererJobsOptions, 'sources'> {
  /** The origin of the image page: the only one that may read a job's bytes. */
  readonly pageOrigin: string;
}

/** An answer the job did not ask for: the page is not doing what it should. */
function unexpected(answer: JobAnswer): ImageEngineError {
  if (answer.type === 'failed') {
    return new ImageEngineError(
      `The image renderer could not do the job: ${answer.detail}`,
      'unavailable',
    );
  }
  return new ImageEngineError(
    `The image renderer answered ${answer.type} to another job.`,
    'crashed',
  );
}

/** A PNG answer, or why there is none. */
function pngOf(answer: JobAnswer): Uint8Array {
  if (answer.type === 'png') return answer.png;
  if (answer.type === 'undecodable')
    throw new Error(`The image could not be decoded: ${answer.detail}`);
  throw unexpected(answer);
}

export class RendererImageEngine implements ImageEngine {
  readonly name = 'chromium';
  /** Where each job's bytes wait for the page; the host's protocol handler serves them. */
  readonly sources: ImageJobSources;
  private readonly jobs: RendererJobs;

  constructor(options: RendererImageEngineOptions) {
    this.sources = new ImageJobSources({ pageOrigin: options.pageOrigin, clock: options.clock });
    this.jobs = new RendererJobs({ ...options, sources: this.sources });
  }

  /** Whether the renderer is running or starting (it closes when idle). */
  get rendererRunning(): boolean {
    return this.jobs.running;
  }

  /**
   * Runs another kind of job on the same renderer, under the same bounds (its Content
   * Credentials jobs: core/content-credentials/renderer-verifier.ts).
   */
  runJob<T>(spec: RendererJobSpec<T>): Promise<T> {
    return this.jobs.run(spec);
  }

  thumbnail(request: ThumbnailRequest): Promise<ThumbnailAnswer> {
    const { header } = request;
    return this.jobs.run<ThumbnailAnswer>({
      source: { kind: 'file', file: request.file, ...(request.root ? { root: request.root } : {}) },
      ...(request.signal ? { signal: request.signal } : {}),
      request: (id, url) => ({
        type: 'thumbnail',
        id,
        url,
        format: header.format,
        width: header.width,
        height: header.height,
        orientedWidth: header.orientedWidth,
        orientedHeight: header.orientedHeight,
        thumbnailSize: request.thumbnailSize,
      }),
      settle: (answer) => {
        if (answer.type === 'thumbnail') {
          const { width, height, webp } = answer;
          return { kind: 'thumbnail', width, height, webp };
        }
        if (answer.type === 'undecodable') return { kind: 'undecodable', detail: answer.detail };
        throw unexpected(answer);
      },
    });
  }

  toPng(bytes: Uint8Array, maxSide?: number): Promise<Uint8Array> {
    return this.jobs.run({
      source: { kind: 'bytes', bytes, type: 'application/octet-stream' },
      request: (id, url) => ({ type: 'png', id, url, maxSide: maxSide ?? null }),
      settle: pngOf,
    });
  }

  renderSvgPng(svg: string, size: { width: number; height: number }): Promise<Uint8Array> {
    return this.jobs.run({
      source: { kind: 'bytes', bytes: new TextEncoder().encode(svg), type: 'image/svg+xml' },
      request: (id, url) => ({ type: 'svg', id, url, ...size }),
      settle: pngOf,
    });
  }

  async dispose(): Promise<void> {
    this.jobs.dispose();
  }
}
