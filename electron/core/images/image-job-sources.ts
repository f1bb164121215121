/**
 * The bytes of each image job, behind a one-time address: the engine registers a job's file (or
 * bytes it already holds) and gets a random token; the image renderer's page fetches
 * `<base><token>` once. The token is 256 random bits, taken on the first request whatever happens
 * next, and dropped when the job ends. A file is streamed from an open handle (the main process
 * never holds a whole image); the response is readable by the image page's origin only.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fileBody, openInside, StreamSlots } from '../fs';

/** What a job's address serves. */
export type JobSource =
  | {
      readonly kind: 'file';
      readonly file: string;
      /**
       * The folder the file must be opened inside (the gallery's root: see ThumbnailRequest.root),
       * checked on the opened descriptor. Absent for a file Pictor made itself or the user named.
       */
      readonly root?: string;
    }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array; readonly type: string };

export interface ImageJobSourcesOptions {
  /** The origin of the image page, the only one allowed to read a response. */
  readonly pageOrigin: string;
}

/** A registered source: its one-time URL and how to drop it unused. */
export interface RegisteredSource {
  readonly token: string;
  /** Drops the token if it was never fetched. */
  release(): void;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Never follows a link at the last component, never waits on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The job's file, opened: inside `root` when given (a gallery image: its folder may be swapped
 * for a link between the header check and this open), else as named; null when it cannot be.
 */
async function openSource(file: string, root: string | undefined): Promise<FileHandle | null> {
  if (root === undefined) return fs.open(file, OPEN_FLAGS).catch(() => null);
  const opened = await openInside(root, file).catch(() => null);
  return opened?.ok ? opened.handle : null;
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });
}

/**
 * Files read from at once for the page. Each token is one job's, and the engine bounds the jobs
 * in flight (two by default), so this bound is never reached in use; it is here because a file
 * body takes a slot like the gallery protocol's do.
 */
const JOB_STREAMS = 8;

/** Requests past the slots that may wait; more are answered 503 (a token is one job's). */
const JOB_WAITING = 64;

/** A job's body the image page asks nothing of this long is ended, its file closed. */
const JOB_IDLE_MS = 60_000;

/**
 * A job's file is read this much at a time: the page reads every byte of it at once (its token
 * is one job's, used once), so there is no unread body to bound, and larger reads spare the
 * thread pool most of its trips (a 10 MB image in 10 reads, not 160).
 */
const JOB_READ_BYTES = 1024 * 1024;

/** Each read handed to the page whole: one stream step per megabyte, not sixteen. */
const JOB_READS = { readBytes: JOB_READ_BYTES, pieceBytes: JOB_READ_BYTES } as const;

export class ImageJobSources {
  private readonly waiting = new Map<string, JobSource>();
  private readonly streams = new StreamSlots(JOB_STREAMS, {
    maxWaiting: JOB_WAITING,
    idleMs: JOB_IDLE_MS,
  });

  constructor(private readonly options: ImageJobSourcesOptions) {}

  /** Sources registered and not yet fetched or released. */
  get size(): number {
    return this.waiting.size;
  }

  register(source: JobSource): RegisteredSource {
    const token = randomBytes(32).toString('base64url');
    this.waiting.set(token, source);
    return { token, release: () => this.waiting.delete(token) };
  }

  /**
   * Answers one request whose URL ends in a token: 404 unless the token waits (it is then taken,
   * so a second request gets 404), 405 for anything but GET.
   */
  async serve(request: Request): Promise<Response> {
    if (request.method !== 'GET') return plain(405, 'Only GET is served.');
    const token = new URL(request.url).pathname.split('/').pop() ?? '';
    const source = TOKEN.test(token) ? this.waiting.get(token) : undefined;
    if (!source) return plain(404, 'No such job.');
    this.waiting.delete(token);
    if (source.kind === 'bytes') {
      return this.respond(new Uint8Array(source.bytes), source.type, source.bytes.length);
    }
    return this.streamFile(source.file, source.root);
  }

  private headers(type: string, length: number): HeadersInit {
    return {
      'Content-Type': type,
      'Content-Length': String(length),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': this.options.pageOrigin,
    };
  }

  private respond(body: BodyInit, type: string, length: number): Response {
    return new Response(body, { status: 200, headers: this.headers(type, length) });
  }

  private async streamFile(file: string, root: string | undefined): Promise<Response> {
    // A slot before the open: a request waiting for one holds no file.
    const slot = await this.streams.take();
    if (!slot) return plain(503, 'Too many jobs are being read.');
    const handle = await openSource(file, root);
    if (!handle) {
      slot.release();
      return plain(404, 'No such job.');
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new Error('not a regular file');
      // The body closes the handle and gives the slot back when it ends or is cancelled; each
      // chunk read is the chunk sent (no copy), and nothing past the Content-Length is read.
      return this.respond(
        fileBody(handle, stats.size, slot, JOB_READS),
        'application/octet-stream',
        stats.size,
      );
    } catch {
      await handle.close().catch(() => undefined);
      slot.release();
      return plain(404, 'No such job.');
    }
  }
}
