/**
 * The installer download, bounded by the size the checked feed declares. electron-updater writes
 * the whole response to its cache (builder-util-runtime's `configurePipes`: no byte count) and
 * checks the sha512 only once the response has ended, so a feed serving an endless installer
 * would fill the cache's disk first. Here its http executor downloads only the files the checked
 * release names, and each response reaches electron-updater through a counter that aborts the
 * request once more bytes arrive than declared (or a larger Content-Length is announced). The
 * refusal is an error on the stream electron-updater listens to, so it rejects the download
 * like any network failure.
 *
 * The same executor follows the installer's redirects anywhere (another host, plain http, an
 * address on the user's network): here each hop must stay on the origin of the file the checked
 * release names, as the release's files themselves do (release-feed.ts), and a hop elsewhere gets
 * no request. A download that slows below a floor is given up (download-pace.ts), and one that
 * fails or is cancelled has its request closed.
 *
 * A failed download is reported only once every stream its body fed has closed, its cache file
 * included: electron-updater empties its cache as soon as the download rejects, and a file stream
 * still opening then (its open queued in the thread pool: a refusal comes in the response's own
 * callback, just after the file stream was made) created its file after the cache was emptied,
 * and left it there (and on Windows a file still open cannot be removed).
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { AppUpdater } from 'electron-updater';
import { ERR_REDIRECTED_ELSEWHERE, ERR_DOWNLOAD_OVER_SIZE } from '../app/updates/update-problems';
import type { Clock } from '../ports/clock';
import { DownloadPace } from './download-pace';

/** The sizes of the files the checked release names, by URL. */
export class DeclaredSizes {
  private sizes = new Map<string, number>();

  /** The files the provider resolved for the release it returned (the only ones downloaded). */
  remember(files: readonly { readonly url: URL; readonly info: { readonly size?: number } }[]) {
    this.sizes = new Map(
      files.flatMap((file) =>
        file.info.size === undefined ? [] : [[file.url.href, file.info.size]],
      ),
    );
  }

  of(url: URL): number | null {
    return this.sizes.get(url.href) ?? null;
  }
}

/** Electron's (and Node's) response, as builder-util-runtime reads it. */
interface Response extends Readable {
  readonly statusCode?: number;
  readonly statusMessage?: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

interface Request {
  abort(): void;
}

/** builder-util-runtime's request options: where a request (or a redirect's hop) goes. */
interface RequestOptions {
  readonly protocol?: string | null;
  readonly hostname?: string | null;
  readonly port?: string | number | null;
}

/** The part of builder-util-runtime's HttpExecutor a download goes through. */
interface Executor {
  download(url: URL, destination: string, options: unknown): Promise<string>;
  createRequest(options: unknown, callback: (response: Response) => void): Request;
  /** Each request of a download, the first and every redirect's (both executors call it). */
  doDownload(
    options: RequestOptions,
    download: { readonly callback: (error: Error | null) => void },
    redirectCount: number,
  ): void;
}

/** The origin a request goes to (builder-util-runtime's default scheme is https), or null. */
function originOf(options: RequestOptions): string | null {
  const port =
    options.port === undefined || options.port === null ? '' : `:${String(options.port)}`;
  try {
    return new URL(`${options.protocol ?? 'https:'}//${options.hostname ?? ''}${port}/`).origin;
  } catch {
    return null;
  }
}

function overSize(limit: number, how: string): Error {
  const message = `The installer ${how} more than the ${String(limit)} bytes the update feed declares.`;
  return Object.assign(new Error(message), { code: ERR_DOWNLOAD_OVER_SIZE });
}

function declaredLength(response: Response): number | null {
  const value = response.headers['content-length'];
  const last = Array.isArray(value) ? value.at(-1) : value;
  return last !== undefined && /^\s*\d+\s*$/.test(last) ? Number(last) : null;
}

/** A stream as far as its end is concerned: Node's streams all are. */
interface Closable {
  readonly closed?: boolean;
  destroy?(error?: Error): unknown;
  once?(event: 'close', listener: () => void): unknown;
}

/**
 * Once `stream` has closed (at once if it has). Its 'error' comes first and is not a close, so this
 * waits on 'close' alone (events.once would reject on the 'error' a refusal's destroy emits).
 */
function closeOf(stream: Closable): Promise<void> | undefined {
  if (stream.closed !== false || !stream.once) return undefined;
  return new Promise((resolve) => stream.once?.('close', resolve));
}

/**
 * Every stream a body feeds, however far down its pipes go: electron-updater pipes the body into
 * its checksum (and progress) transforms and those into its file, each `pipe` made on the stream
 * the last one returned, so each recorded stream's own `pipe` records the next.
 */
class PipeChain {
  private readonly streams = new Set<NodeJS.WritableStream>();

  add(stream: NodeJS.WritableStream): void {
    if (this.streams.has(stream)) return;
    this.streams.add(stream);
    const readable = stream as Partial<Pick<Readable, 'pipe'>>;
    if (typeof readable.pipe !== 'function') return;
    const pipe = readable.pipe.bind(stream);
    readable.pipe = <T extends NodeJS.WritableStream>(
      destination: T,
      options?: { end?: boolean },
    ): T => {
      this.add(destination);
      return pipe(destination, options);
    };
  }

  destroy(error: Error): void {
    for (const stream of this.streams) (stream as Closable).destroy?.(error);
  }

  /**
   * Once every stream has closed: a file stream closes only after its open has finished and its
   * descriptor is closed again. Called after {@link destroy}, so each of them is closing.
   */
  async whenClosed(): Promise<void> {
    await Promise.all([...this.streams].map((stream: Closable) => closeOf(stream)));
  }
}

/**
 * The response as electron-updater sees it: the same status and headers, the body counted. Past
 * the limit the request is aborted and this stream and the streams it feeds fail with the
 * refusal: electron-updater listens for errors on both (closing its file and rejecting).
 */
class CountedBody extends Transform {
  readonly statusCode: number | undefined;
  readonly statusMessage: string | undefined;
  readonly headers: Response['headers'];
  private received = 0;
  private readonly downstream = new PipeChain();

  constructor(
    private readonly response: Response,
    private readonly request: Request,
    private readonly limit: number,
    private readonly pace: DownloadPace,
  ) {
    super();
    this.statusCode = response.statusCode;
    this.statusMessage = response.statusMessage;
    this.headers = response.headers;
    // A connection lost mid-body fails where electron-updater listens: here.
    response.on('error', (error) => this.destroy(error));
    response.pipe(this);
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    this.downstream.add(destination);
    return super.pipe(destination, options);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.received += chunk.length;
    this.pace.count(chunk.length);
    // The chunk that goes past the limit is not passed on: at most `limit` bytes are written.
    if (this.received > this.limit) this.refuse(overSize(this.limit, 'sent'));
    else callback(null, chunk);
  }

  refuse(error: Error): void {
    this.response.unpipe(this);
    this.request.abort();
    this.response.destroy();
    this.downstream.destroy(error);
    this.destroy(error);
  }

  /** Once this body and every stream it fed have closed (after {@link refuse}). */
  async whenClosed(): Promise<void> {
    await Promise.all([this.downstream.whenClosed(), closeOf(this)]);
  }
}

/** The download under way: its pace, its latest request and that request's counted body. */
interface Running {
  readonly limit: number;
  readonly origin: string;
  readonly pace: DownloadPace;
  request: Request | null;
  body: CountedBody | null;
}

/**
 * Bounds every download of `updater`'s http executor by the declared size of the file it fetches
 * (redirects included), keeps its redirects on the file's origin and gives it up below a pace on
 * `clock`; a file the checked release does not name is not downloaded. electron-updater
 * downloads one file at a time (it shares one download promise), which this relies on.
 */
export function boundDownloads(updater: AppUpdater, sizes: DeclaredSizes, clock: Clock): void {
  const executor = (updater as unknown as { httpExecutor: Executor | null }).httpExecutor;
  // No executor: electron-updater was given its own app adapter, and downloads nothing.
  if (!executor) return;
  const download = executor.download.bind(executor);
  const createRequest = executor.createRequest.bind(executor);
  const doDownload = executor.doDownload.bind(executor);
  let running: Running | null = null;
  executor.download = async (url, destination, options) => {
    const size = sizes.of(url);
    if (size === null) {
      throw Object.assign(new Error(`The checked update feed does not name ${url.pathname}.`), {
        code: 'ERR_UPDATER_INVALID_UPDATE_INFO',
      });
    }
    if (running !== null) throw new Error('An update is already being downloaded.');
    // Closes the request and the streams it feeds, whatever ended the download: the pace, a
    // refusal, or a cancellation (electron-updater's rejects without closing anything).
    const stop = (error: Error): void => {
      if (running?.body) running.body.refuse(error);
      else running?.request?.abort();
    };
    const pace = new DownloadPace(clock, size, stop);
    running = { limit: size, origin: url.origin, pace, request: null, body: null };
    try {
      return await Promise.race([download(url, destination, options), pace.stalled]);
    } catch (error) {
      stop(error instanceof Error ? error : new Error(String(error)));
      // electron-updater empties its cache once this rejects: not before its file has closed.
      await running?.body?.whenClosed();
      throw error;
    } finally {
      pace.stop();
      running = null;
    }
  };
  executor.doDownload = (options, download, redirectCount) => {
    const origin = running?.origin;
    if (origin !== undefined && originOf(options) !== origin) {
      const where = originOf(options) ?? 'an address that is not one';
      const message = `The installer was redirected away from the update feed, to ${where}.`;
      download.callback(Object.assign(new Error(message), { code: ERR_REDIRECTED_ELSEWHERE }));
      return;
    }
    doDownload(options, download, redirectCount);
  };
  executor.createRequest = (options, callback) => {
    const current = running;
    if (current === null) return createRequest(options, callback);
    const request = createRequest(options, (response) => {
      const body = new CountedBody(response, request, current.limit, current.pace);
      current.body = body;
      callback(body);
      const declared = declaredLength(response);
      if (declared !== null && declared > current.limit)
        body.refuse(overSize(current.limit, 'announces'));
    });
    current.request = request;
    current.body = null;
    return request;
  };
}
