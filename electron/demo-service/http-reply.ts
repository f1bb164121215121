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
 * Reads the body up to `maxBytes`. An oversized body is drained (not kept) so the 400 reaches
 * a client still sending; one beyond {@link DRAIN_LIMIT} gets the connection closed.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) req.socket.destroy();
    });
    req.on('end', () =>
      resolve(
        size > maxBytes
          ? { ok: false, reason: 'too-large' }
          : { ok: true, bytes: Buffer.concat(chunks) },
      ),
    );
    // Only the first resolve counts: after 'end' these change nothing.
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('close', () => resolve({ ok: false, reason: 'aborted' }));
  });
}

/** Writes a reply (headers only for HEAD); returns false when the socket was already gone. */
export function writeReply(res: ServerResponse, reply: Reply, method: string): boolean {
  if (res.destroyed || res.socket?.destroyed) return false;
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(reply.body.length) });
  res.end(method === 'HEAD' ? undefined : reply.body);
  return true;
}
