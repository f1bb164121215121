/**
 * Shared pieces of the gallery tests: a loopback HTTP server with per-path handlers that
 * records every request's headers, real images made with sharp, library copies and task
 * records.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { randomBytes } from 'node:crypto';
import { cp, readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { TEMP_DIR } from '../../electron/core/fs/temp-names';
import type { TaskRecord } from '../../shared/domain/task-record';
import { makeTaskRecord } from './task-records';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  readonly baseUrl: string;
  /** Headers of every request, in order, with their path. */
  readonly requests: { path: string; headers: IncomingHttpHeaders }[];
  route(path: string, handler: Handler): string;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, headers: req.headers });
    const handler = routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404).end('no such route');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    route(path, handler) {
      routes.set(path, handler);
      return `${baseUrl}${path}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `body` with a correct Content-Length and the given type. */
export function serve(
  body: Buffer | string,
  contentType = 'image/png',
  extra: Record<string, string> = {},
): Handler {
  return (_req, res) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(200, {
      'Content-Type': contentType,
      'Content-Length': String(bytes.length),
      ...extra,
    });
    res.end(bytes);
  };
}

/** Serves `body` with chunked encoding (no Content-Length) in pieces. */
export function serveChunked(body: Buffer, chunk = 4096): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'image/png' });
    for (let offset = 0; offset < body.length; offset += chunk)
      res.write(body.subarray(offset, offset + chunk));
    res.end();
  };
}

export type Format = 'png' | 'jpeg' | 'webp' | 'gif';

/** A real image of random pixels (so it does not compress to nothing). */
export async function makeImage(format: Format, width: number, height: number): Promise<Buffer> {
  const pixels = randomBytes(width * height * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

/**
 * A copy of the library at `from` in `to`, as a user copies the folder while Pictor runs: its
 * scratch folder left out (a file there is renamed into place or removed at any moment: a copy
 * made as a task's last writes ended failed with ENOENT on one), as Pictor clears it on opening.
 */
export async function copyLibrary(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true, filter: (source) => basename(source) !== TEMP_DIR });
}

export async function tempFiles(root: string): Promise<string[]> {
  return readdir(join(root, '.pictor-tmp')).catch(() => []);
}

let counter = 0;

/** A completed task record with one image per URL. */
export function makeRecord(
  urls: (string | null)[],
  overrides: Partial<TaskRecord> = {},
): TaskRecord {
  counter += 1;
  const createdAt = new Date(2024, 4, 17, 9, 5, 7).getTime() + counter * 1000;
  return makeTaskRecord(
    {
      localId: `a1b2c3d4-0000-4000-8000-${String(counter).padStart(12, '0')}`,
      taskId: `task-${counter}`,
      endpoint: 'http://127.0.0.1:1',
      request: { prompt: 'A lighthouse at dusk, oil painting', size: '64x64', quality: 'low' },
      polls: 3,
      images: urls.map((url, index) => ({
        index,
        url,
        state: 'pending',
        attempts: 0,
        favourite: false,
      })),
      ...overrides,
    },
    createdAt,
  );
}
