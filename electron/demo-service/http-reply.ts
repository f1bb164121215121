import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * An answer built before it is written, so a fault can delay it, cut it short or drop it
 * after the work behind it was done.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A JSON answer. */
export function jsonReply(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): Reply {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(value)),
  };
}

/** The service's refusal shape: `{ error: { code, message, param? } }`. */
export function errorReply(
  status: number,
  code: string,
  message: string,
  extra: { param?: string; headers?: Record<string, string> } = {},
): Reply {
  const error = extra.param ? { code, message, param: extra.param } : { code, message };
  return jsonReply(status, { error }, extra.headers);
}

/** Today's contract's 402. */
export function noCredits(): Reply {
  return errorReply(
    402,
    'insufficient_credits',
    'Your account has no credits left. Add credits in the billing console, then try again.',
  );
}

/**
 * Today's contract's refusal of a submit while the service holds its bound of running tasks
 * (task-store.ts `full`): a busy service's 429, to be tried again later.
 */
export function busy(): Reply {
  return errorReply(
    429,
    'rate_limited',
    'The service has too many tasks running just now. Try again in a minute.',
    { headers: { 'Retry-After': '60' } },
  );
}

/** Tells a ready answer from the value a step produces instead. */
export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as Reply).body);
}

/** A storage-style XML error, as a CDN in front of signed image URLs sends. */
export function xmlErrorReply(status: number, code: string, message: string): Reply {
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
  return { status, headers: { 'Content-Type': 'application/xml' }, body: Buffer.from(xml) };
}

/** The request body, or how much too large it was. */
export type BodyResult =
  { ok: true; bytes: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/** Past this we stop draining an oversized body and drop the connection instead. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * Bytes of request bodies being read at once, over every connection of one service (its
 * `maxHeldBytes`): each connection's body alone is bounded, their number is not.
 */
export class BodyBudget {
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  /** Takes `bytes` when they fit under the bound; false (nothing taken) when not. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }

  /** What the bodies being read hold now. */
  get heldBytes(): number {
    return this.held;
  }
}

/**
 * Reads the body up to `maxBytes`. An oversized body is drained (not kept) so the 400 reaches
 * a client still sending; one beyond {@link DRAIN_LIMIT} gets the connection closed. What is kept
 * is taken from `budget` until the body has been read (then its handler holds it): a chunk past
 * the budget closes the connection (`aborted`), answering nothing, as a service out of memory for
 * requests would.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  budget: BodyBudget,
): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let taken = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      budget.give(taken);
      taken = 0;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size <= maxBytes) {
        if (!budget.take(chunk.length)) {
          chunks.length = 0;
          settle({ ok: false, reason: 'aborted' });
          req.socket.destroy();
          return;
        }
        taken += chunk.length;
        chunks.push(chunk);
      } else if (size > DRAIN_LIMIT) req.socket.destroy();
    });
    req.on('end', () =>
      settle(
        size > maxBytes
          ? { ok: false, reason: 'too-large' }
          : { ok: true, bytes: Buffer.concat(chunks) },
      ),
    );
    // Only the first settle counts: after 'end' these change nothing.
    req.on('error', () => settle({ ok: false, reason: 'aborted' }));
    req.on('close', () => settle({ ok: false, reason: 'aborted' }));
  });
}

/** Writes a reply (headers only for HEAD); returns false when the socket was already gone. */
export function writeReply(res: ServerResponse, reply: Reply, method: string): boolean {
  if (res.destroyed || res.socket?.destroyed) return false;
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(reply.body.length) });
  res.end(method === 'HEAD' ? undefined : reply.body);
  return true;
}
