/**
 * The bytes of each image job, behind a one-time address: the engine registers a job's file (or
 * bytes it already holds) and gets a random token; the image renderer's page fetches
 * `<base><token>` once. The token is 256 random bits, taken on the first request whatever happens
 * next, and dropped when the job ends. A file is streamed from an open handle (the main process
 * never holds a whole image); the response is readable by the image page's origin only.
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { Clock } from '../../ports/clock';
import { fileBody, LentBuffers, openInside, StreamSlots } from '../fs';

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
  /** Measures how long the kept read buffers stay unused before they are dropped. */
  readonly clock?: Clock;
}

/** A registered source: its one-time URL and how to drop it unused. */
export interface RegisteredSource {
  readonly token: string;
  /** Drops the token if it was never fetched. */
  release(): void;
  /**
   * The page answered this source's job: it has read all it will of the body. If the body had
   * been read to its end before, the buffers it was read into are lent again (see
   * {@link BodyLease}); otherwise they are left to the garbage collector.
   */
  answered(): void;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Never follows a link at the last component, never waits on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A job's file, opened, and its size as the one `fstat` of the open saw it. */
interface OpenedSource {
  readonly handle: FileHandle;
  readonly size: number;
}

/**
 * The job's file, opened: inside `root` when given (a gallery image: its folder may be swapped
 * for a link between the header check and this open), else as named; null when it cannot be or
 * is not a regular file, 'too large' when it is over {@link GALLERY_MAX_IMAGE_BYTES} (the file may
 * have been swapped for a bigger one since the header check held it to the cap). Looked at once:
 * the open inside a root has the handle's `fstat` already.
 */
async function openSource(
  file: string,
  root: string | undefined,
): Promise<OpenedSource | 'too large' | null> {
  let handle: FileHandle;
  let stats: { isFile(): boolean; readonly size: number | bigint } | null;
  if (root === undefined) {
    const opened = await fs.open(file, OPEN_FLAGS).catch(() => null);
    if (!opened) return null;
    handle = opened;
    stats = await handle.stat().catch(() => null);
  } else {
    const opened = await openInside(root, file).catch(() => null);
    if (!opened?.ok) return null;
    ({ handle, stats } = opened);
  }
  const size = Number(stats?.size ?? 0);
  if (stats?.isFile() && size <= GALLERY_MAX_IMAGE_BYTES) return { handle, size };
  await handle.close().catch(() => undefined);
  return stats?.isFile() ? 'too large' : null;
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
 * A job's file is read up to this much at a time: as much as any image the gallery keeps
 * (DOWNLOAD_MAX_IMAGE_BYTES), so each image is one read. The page reads every byte of a job at
 * once (its token is one job's, used once), and a job's buffers stay lent until the page has
 * answered (see {@link BodyLease}), so reading it whole holds no more than reading it in pieces;
 * and larger reads spare the thread pool, the stream steps and the loader their trips: an 8 MB
 * image in one read, not 2 of 4 MiB or 128 of 64 KB (serving one over loopback HTTP, main's CPU
 * in one read was 4.0 and 3.2 ms against 4.9 and 3.5 ms in two of 4 MiB: two runs, each the
 * medians of 5 alternated rounds of 40). Each read goes into a buffer lent for the job of the
 * read's own size (rounded up to {@link READ_GRAIN}): at a fixed 8 MiB, an image of 8.05 MiB took
 * two 8 MiB buffers, and two such jobs in flight allocated afresh every time.
 */
const JOB_READ_BYTES = GALLERY_MAX_IMAGE_BYTES;

/** Each read handed to the page whole: one stream step per read. */
const JOB_READS = { readBytes: JOB_READ_BYTES, pieceBytes: JOB_READ_BYTES } as const;

/** A read buffer's length is a whole number of these (a few sizes serve every image). */
const READ_GRAIN = 1024 * 1024;

/**
 * Read buffers kept for the next jobs, the largest first, 64 MiB at most: the two jobs in flight
 * of images up to 32 MiB (an upscaled 4096² photo) read again without allocating. Dropped after
 * {@link KEPT_IDLE_MS} with no job read, so an idle app holds none.
 */
const KEPT_READ_BYTES = 64 * 1024 * 1024;
const KEPT_IDLE_MS = 10_000;

/**
 * The most of one job's reads it holds until its answer, to lend them again: its share of the
 * kept buffers, the two jobs in flight. A larger image's read (up to 64 MiB) is the garbage
 * collector's once the reader is done with it, so a page that answers late (a compromised one:
 * up to the job's time limit) pins 32 MiB a job in main, not the whole file.
 */
const JOB_HELD_BYTES = KEPT_READ_BYTES / 2;

/**
 * The buffers one job's body was read into, and whether it was read to its end. They go back to
 * the pool only when the body ended and then the page answered the job: the page answers after it
 * has read every byte (or given up), and what carries the bytes to it (Electron's loader and its
 * data pipe, the bench's socket) has handed them all on before the page sees the end. A body cut
 * short, a job that timed out, was cancelled or whose renderer died gives nothing back: a reader
 * might still hold a view, and the garbage collector frees those buffers as it would fresh ones.
 * A page that answers before reading to the end (a compromised one) gives nothing back either;
 * one that lies about having read can only spoil bytes that only it is sent.
 */
class BodyLease {
  private readonly buffers: Buffer[] = [];
  /** Their bytes: no more than {@link JOB_HELD_BYTES}. */
  private bytes = 0;
  private ended = false;
  private settled = false;

  constructor(
    private readonly pool: LentBuffers,
    private readonly heldBytes: number,
  ) {}

  take = (bytes: number): Buffer => {
    const buffer = this.pool.take(bytes);
    // A read past the job's share is not held until the answer: once the reader is done with
    // it, it is the garbage collector's (a 64 MiB job answered late pinned all 64 MiB).
    if (!this.settled && this.bytes + buffer.length <= this.heldBytes) {
      this.buffers.push(buffer);
      this.bytes += buffer.length;
    }
    return buffer;
  };

  readToEnd = (): void => {
    if (!this.settled) this.ended = true;
  };

  answered(): void {
    if (this.ended && !this.settled) this.pool.give(this.buffers);
    this.settle();
  }

  settle(): void {
    this.settled = true;
    this.buffers.length = 0;
  }
}

export class ImageJobSources {
  private readonly waiting = new Map<string, { source: JobSource; lease: BodyLease }>();
  private readonly readBuffers: LentBuffers;
  private readonly streams = new StreamSlots(JOB_STREAMS, {
    maxWaiting: JOB_WAITING,
    idleMs: JOB_IDLE_MS,
  });

  constructor(private readonly options: ImageJobSourcesOptions) {
    this.readBuffers = new LentBuffers({
      grain: READ_GRAIN,
      keptBytes: KEPT_READ_BYTES,
      idleMs: KEPT_IDLE_MS,
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }

  /** The kept read buffers and how many were ever allocated (the figures tests check). */
  get readBufferCounters(): {
    readonly kept: number;
    readonly keptBytes: number;
    readonly made: number;
  } {
    return this.readBuffers.counters;
  }

  /** Sources registered and not yet fetched or released. */
  get size(): number {
    return this.waiting.size;
  }

  register(source: JobSource): RegisteredSource {
    const token = process.getBuiltinModule('node:crypto').randomBytes(32).toString('base64url');
    const lease = new BodyLease(this.readBuffers, JOB_HELD_BYTES);
    this.waiting.set(token, { source, lease });
    return {
      token,
      release: () => {
        this.waiting.delete(token);
        lease.settle();
      },
      answered: () => lease.answered(),
    };
  }

  /**
   * Answers one request whose URL ends in a token: 404 unless the token waits (it is then taken,
   * so a second request gets 404), 405 for anything but GET.
   */
  async serve(request: Request): Promise<Response> {
    if (request.method !== 'GET') return plain(405, 'Only GET is served.');
    const token = new URL(request.url).pathname.split('/').pop() ?? '';
    const waiting = TOKEN.test(token) ? this.waiting.get(token) : undefined;
    if (!waiting) return plain(404, 'No such job.');
    this.waiting.delete(token);
    const { source, lease } = waiting;
    if (source.kind === 'bytes') {
      return this.respond(new Uint8Array(source.bytes), source.type, source.bytes.length);
    }
    return this.streamFile(source.file, source.root, lease);
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

  private async streamFile(
    file: string,
    root: string | undefined,
    lease: BodyLease,
  ): Promise<Response> {
    // A slot before the open: a request waiting for one holds no file.
    const slot = await this.streams.take();
    if (!slot) return plain(503, 'Too many jobs are being read.');
    const opened = await openSource(file, root);
    if (opened === null || opened === 'too large') {
      slot.release();
      if (opened === null) return plain(404, 'No such job.');
      return plain(413, 'The image is larger than Pictor reads.');
    }
    const { handle, size } = opened;
    try {
      // The body closes the handle and gives the slot back when it ends or is cancelled; each
      // chunk read is the chunk sent (no copy), into the job's lent buffers, and nothing past
      // the Content-Length is read.
      const reads = { ...JOB_READS, buffer: lease.take, readToEnd: lease.readToEnd };
      return this.respond(fileBody(handle, size, slot, reads), 'application/octet-stream', size);
    } catch {
      await handle.close().catch(() => undefined);
      slot.release();
      return plain(404, 'No such job.');
    }
  }
}
