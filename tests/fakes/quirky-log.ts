/**
 * The quirky service's request log and the small HTTP helpers both of its origins share.
 * Kept apart from the service so the CDN and the API record requests the same way.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** Which of the quirky service's two servers answered. */
export type QuirkyOrigin = 'api' | 'cdn';

/** One request as the quirky service saw it. */
export interface LoggedRequest {
  readonly origin: QuirkyOrigin;
  /** Arrival time in ms (`performance.timeOrigin + performance.now()`, sub-millisecond). */
  readonly at: number;
  readonly method: string;
  /** Path and query as sent, without the origin. */
  readonly path: string;
  /** Header names are lower-case, as Node gives them. */
  readonly headers: IncomingHttpHeaders;
  /** The body text (API requests only; empty for GET). */
  readonly body: string;
  /** The status the service answered with; `0` until the answer is written. */
  status: number;
  /** The task a poll or an image belongs to, when the service could tell. */
  taskId: string | null;
}

/** Wall-clock milliseconds with sub-millisecond precision. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Reads a request body as text (bounded: the fake never needs large bodies). */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > 1_000_000) throw new Error('request body too large for the quirky service');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Appends an entry for `request` to `log` and returns it so the handler can fill in the rest. */
export function logRequest(
  log: LoggedRequest[],
  origin: QuirkyOrigin,
  request: IncomingMessage,
  body: string,
): LoggedRequest {
  const entry: LoggedRequest = {
    origin,
    at: nowMs(),
    method: request.method ?? 'GET',
    path: request.url ?? '/',
    headers: { ...request.headers },
    body,
    status: 0,
    taskId: null,
  };
  log.push(entry);
  return entry;
}

/** Writes a response and records its status in the log entry. */
export function answer(
  response: ServerResponse,
  entry: LoggedRequest,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
): void {
  entry.status = status;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  response.writeHead(status, { ...headers, 'Content-Length': String(bytes.length) });
  response.end(entry.method === 'HEAD' ? undefined : bytes);
}

/** A JSON answer with an unremarkable `application/json` type. */
export function answerJson(
  response: ServerResponse,
  entry: LoggedRequest,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  answer(
    response,
    entry,
    status,
    { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    JSON.stringify(value),
  );
}
