/**
 * A release feed on loopback, as electron-builder publishes one to a generic server: the channel
 * file (`latest.yml`, `latest-linux.yml`…), the installer and its blockmap. Records every request
 * (method, path, headers, body bytes) so tests can say what the updater sent.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface FeedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Everything the client sent: request line, headers and body, as text. */
  readonly raw: string;
}

export interface ServedFile {
  readonly status?: number;
  /** Headers besides the type and length (a redirect's `location`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: Buffer | string;
  /**
   * `endless`: the body (repeated) never ends; `stall`: the headers, then nothing but what the
   * test writes ({@link UpdateFeed.held}); `silent`: not even the headers. Each way the response
   * goes on until the client gives up.
   */
  readonly mode?: 'endless' | 'stall' | 'silent';
  /**
   * `endless` only: end the response after this many bytes. A safety net for the test run on
   * code that reads without a limit, which would otherwise fill the disk.
   */
  readonly upTo?: number;
}

export function sha512Base64(bytes: Buffer): string {
  return createHash('sha512').update(bytes).digest('base64');
}

/**
 * A blockmap in electron-builder's format (gzipped JSON, version 2): the file's chunks with their
 * checksums, which the differential downloader compares between versions.
 */
export function blockmapOf(bytes: Buffer, chunk = 64 * 1024): Buffer {
  const checksums: string[] = [];
  const sizes: number[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    const part = bytes.subarray(offset, offset + chunk);
    checksums.push(createHash('sha256').update(part).digest('base64'));
    sizes.push(part.length);
  }
  return gzipSync(
    JSON.stringify({ version: '2', files: [{ name: 'file', offset: 0, checksums, sizes }] }),
  );
}

/** The channel file electron-builder writes for one installer. */
export function channelFile(options: {
  version: string;
  file: string;
  bytes: Buffer;
  /** The sha512 the feed claims (default: the bytes' own). */
  sha512?: string;
  releaseNotes?: string;
}): string {
  const sha512 = options.sha512 ?? sha512Base64(options.bytes);
  return [
    `version: ${options.version}`,
    'files:',
    `  - url: ${options.file}`,
    `    sha512: ${sha512}`,
    `    size: ${options.bytes.length}`,
    `path: ${options.file}`,
    `sha512: ${sha512}`,
    `releaseDate: '2026-11-20T10:00:00.000Z'`,
    ...(options.releaseNotes === undefined
      ? []
      : [`releaseNotes: ${JSON.stringify(options.releaseNotes)}`]),
    '',
  ].join('\n');
}

export class UpdateFeed {
  readonly requests: FeedRequest[] = [];
  /** Path (without the query) → what is served there; anything else is a 404. */
  readonly files = new Map<string, ServedFile>();
  /** Paths of endless or stalled responses the client closed, and the bytes sent on each. */
  readonly abandoned: { readonly path: string; readonly bytes: number }[] = [];
  /** The open response of each stalled path, for a test to write to at its own pace. */
  readonly held = new Map<string, ServerResponse>();
  private server: Server | null = null;
  private port = 0;
  private readonly events = new EventEmitter();

  /** Resolves once a request for `path` has arrived (at once if one already has). */
  whenRequested(path: string): Promise<void> {
    return this.when('requested', () => this.paths().includes(path));
  }

  /** Resolves once the client has closed an endless or stalled response for `path`. */
  whenAbandoned(path: string): Promise<void> {
    return this.when('abandoned', () => this.abandoned.some((entry) => entry.path === path));
  }

  private when(event: string, done: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (!done()) return;
        this.events.off(event, check);
        resolve();
      };
      this.events.on(event, check);
      check();
    });
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const head = `${request.method ?? ''} ${request.url ?? ''}\n${request.rawHeaders.join('\n')}`;
        const path = new URL(request.url ?? '/', 'http://feed.invalid').pathname;
        this.requests.push({
          method: request.method ?? '',
          path,
          headers: request.headers,
          raw: `${head}\n\n${Buffer.concat(chunks).toString('latin1')}`,
        });
        this.events.emit('requested');
        const file = this.files.get(path);
        if (!file) {
          response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
          return;
        }
        const body = typeof file.body === 'string' ? Buffer.from(file.body) : file.body;
        if (file.mode) {
          this.serveUntilClosed(path, file, body, response);
          return;
        }
        response
          .writeHead(file.status ?? 200, {
            'content-type': 'application/octet-stream',
            'content-length': body.length,
            ...file.headers,
          })
          .end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /**
   * Writes `body` over and over (endless, up to `upTo` bytes if given) or nothing at all (stall)
   * until the client closes.
   */
  private serveUntilClosed(
    path: string,
    file: ServedFile,
    body: Buffer,
    response: ServerResponse,
  ): void {
    let bytes = 0;
    let open = true;
    response.on('close', () => {
      open = false;
      if (!response.writableEnded) {
        this.abandoned.push({ path, bytes });
        this.events.emit('abandoned');
      }
    });
    if (file.mode === 'silent') return;
    response.writeHead(200, { 'content-type': 'application/octet-stream', ...file.headers });
    response.flushHeaders();
    if (file.mode === 'stall') {
      this.held.set(path, response);
      return;
    }
    const limit = file.upTo ?? Infinity;
    const more = (): boolean => open && bytes < limit;
    const pump = (): void => {
      // Waits for the client to take each chunk: what was sent is what the client accepted.
      while (more()) {
        bytes += body.length;
        if (!response.write(body)) {
          response.once('drain', pump);
          return;
        }
      }
      if (open) response.end();
    };
    pump();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** Paths asked for, in order. */
  paths(): string[] {
    return this.requests.map((request) => request.path);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
