/**
 * The pinned network of image downloads and of signed uploads (fal's `upload_url`, DashScope's
 * `upload_host`, core/inputs/upload-http.ts), and its resolver: the system one (hosts file and
 * DNS, as every other program on the computer resolves). A direct connection pinned to the
 * address the URL policy checked.
 *
 * An image download (a GET or HEAD without a body) is read by Pictor's own strict HTTP/1.1
 * response reader on one socket (pinned-exchange.ts, http-response-parser.ts): node:http
 * allocated a new 64 KB buffer for every chunk a socket read, and a burst of downloads left the
 * main process's heap hundreds of MB larger. Signed uploads (a PUT or POST with a body, a few per
 * job, their answers small) stay on node:http, as below.
 *
 * An upload is Node's `http(s).request` on a fresh socket of its own (no agent, so no pooled
 * connection to another address is reused) dialled to that one address (pinned-dial.ts): the
 * socket cannot go anywhere else even if the name now resolves differently. TLS still sends the
 * host name as SNI and verifies the certificate against it; the Host header is the URL's. A body
 * streamed from an input's file (a signed PUT's bytes, an OSS form: core/inputs/upload-body.ts) is
 * written a piece at a time, the next read once the last was taken, framed by the Content-Length
 * its caller gave; a stream that fails before its end ends the request unfinished (the target never
 * has a whole body). Any other body is encoded as `fetch` would encode it and sent with its length.
 *
 * Proxies: image downloads and signed uploads connect directly, in the app and the CLI alike.
 * Through a proxy the proxy resolves the name, so the address Pictor checked would not be the one
 * connected to and the rebinding check would be void; an image host or a storage bucket is
 * public by definition, so a direct connection is what they need. The cost: on a network whose
 * only way out is an HTTP(S) proxy (system settings, PAC, HTTPS_PROXY), images and uploads to
 * signed targets fail as "could not be reached" while the service requests (an upload's keyed
 * first step among them) still go through the proxy.
 *
 * Not undici: in undici 7 a server that closes while the body is paused under backpressure
 * trips an assertion in the socket's `end` handler, an uncaught exception that would take the
 * main process down (nodejs/undici#5360, fixed only in undici 8, which needs Node 22.19).
 */
import { lookup } from 'node:dns/promises';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { PinnedFetch, ResolvedAddress, Resolver } from '../../ports/http';
import { encodeBody } from '../base';
import { readableBody } from '../fs';
import { bodyStream } from './pinned-body';
import { dial, whenReady, type ConnectionCheck } from './pinned-dial';
import { PinnedExchange, type PinnedRequest } from './pinned-exchange';

// Through the CommonJS loader: an ES import of node:http(s) builds its ES facade, reading every
// export, and one of them loads Node's bundled undici (a tenth of every CLI start's CPU).
const { request: httpRequest } = process.getBuiltinModule('node:http');
const { request: httpsRequest } = process.getBuiltinModule('node:https');

/** `dns.lookup` with every address: what the operating system would connect to. */
export const systemResolver: Resolver = async (host) => {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

type Connected = (error: Error | null, socket?: Socket) => void;

/**
 * node:http's `createConnection` for one request: a socket dialled to the pinned address
 * (pinned-dial.ts), handed over once connected and judged; nothing is written before.
 */
function pinnedConnection(target: URL, pin: ResolvedAddress, options: PinnedFetchOptions) {
  return (_given: unknown, connected: Connected): undefined => {
    const socket = dial({ url: target, address: pin, ca: options.ca });
    whenReady(socket, target, options.checkConnection).then(
      () => connected(null, socket),
      (error: unknown) => connected(error instanceof Error ? error : new Error(String(error))),
    );
    return undefined;
  };
}

/** Statuses whose responses have no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function toResponse(message: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let index = 0; index + 1 < message.rawHeaders.length; index += 2) {
    headers.append(message.rawHeaders[index] ?? '', message.rawHeaders[index + 1] ?? '');
  }
  const status = message.statusCode ?? 0;
  const empty = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
  if (empty) message.resume();
  const body = empty ? null : readableBody(message);
  return new Response(body, { status, statusText: message.statusMessage ?? '', headers });
}

/** The headers and bytes to send: the caller's headers, and a body's type and length with it. */
async function outgoingOf(init: RequestInit, method: string) {
  if (init.body === undefined || init.body === null) {
    return { headers: new Headers(init.headers), bytes: null };
  }
  if (method === 'GET' || method === 'HEAD') throw new TypeError(`A ${method} has no body.`);
  if (init.body instanceof ReadableStream) {
    const headers = new Headers(init.headers);
    // Framed by its length, never chunked: the target must know a body cut short is not whole.
    if (!/^\d+$/.test(headers.get('content-length') ?? '')) {
      throw new TypeError('A streamed body needs its Content-Length.');
    }
    return { headers, bytes: init.body as ReadableStream<Uint8Array> };
  }
  const { headers, bytes } = await encodeBody(init.body, init.headers);
  headers.set('content-length', String(bytes.byteLength));
  return { headers, bytes };
}

/** An image download's request, read by the strict reader: its Response, body as it comes. */
async function downloadResponse(request: PinnedRequest): Promise<Response> {
  const exchange = new PinnedExchange(request);
  const head = await exchange.head;
  try {
    const fields = new Headers();
    for (const [name, value] of head.headers) fields.append(name, value);
    const empty = !head.hasBody || NULL_BODY_STATUSES.has(head.status);
    const body = empty ? null : bodyStream(exchange);
    return new Response(body, { status: head.status, statusText: head.reason, headers: fields });
  } catch (error) {
    // A status text or header the Fetch standard cannot hold: not a usable answer.
    exchange.cancel(error);
    throw error;
  }
}

export interface PinnedFetchOptions {
  /**
   * The only trusted certificates (tests' self-signed hosts); Node's and the system's authorities
   * otherwise (trusted-authorities.ts).
   */
  readonly ca?: string | Buffer;
  /** Judges each connection once made, before its request is written (the local-server gate). */
  readonly checkConnection?: ConnectionCheck;
}

/**
 * A {@link PinnedFetch} over direct connections (no proxy): GET and HEAD for image downloads, a
 * PUT or POST with a body (bytes, a Blob, a FormData) for signed uploads. Redirects are returned,
 * never followed; the signal stops the request, its body's sending included.
 */
export function createPinnedFetch(options: PinnedFetchOptions = {}): PinnedFetch {
  return async (url, init, address) => {
    const target = new URL(url);
    const method = (init.method ?? 'GET').toUpperCase();
    const outgoing = await outgoingOf(init, method);
    init.signal?.throwIfAborted();
    if (outgoing.bytes === null && (method === 'GET' || method === 'HEAD')) {
      return downloadResponse({
        url: target,
        method,
        headers: outgoing.headers,
        address,
        ...(init.signal ? { signal: init.signal } : {}),
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        ...(options.checkConnection ? { checkConnection: options.checkConnection } : {}),
      });
    }
    const request: RequestOptions = {
      method,
      headers: Object.fromEntries(outgoing.headers),
      // No agent: this one socket, made and judged here, carries this one request.
      createConnection: pinnedConnection(
        target,
        address,
        options,
      ) as RequestOptions['createConnection'],
      ...(init.signal ? { signal: init.signal } : {}),
    };
    return new Promise<Response>((resolve, reject) => {
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const sending = send(target, request, (message) => {
        try {
          resolve(toResponse(message, method));
        } catch (error) {
          // A status or header the Fetch standard cannot hold: not a usable answer.
          message.destroy();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      sending.on('error', reject);
      if (outgoing.bytes instanceof ReadableStream) void writeStreamed(sending, outgoing.bytes);
      else if (outgoing.bytes) sending.end(outgoing.bytes);
      else sending.end();
    });
  };
}

/**
 * `work`, or `null` once `sending` closed. Not a race with one promise that stays pending: each
 * race would leave it a reaction holding the piece it settled with, every piece of the body kept.
 */
function unlessClosed<T>(sending: ClientRequest, work: Promise<T>): Promise<T | null> {
  return new Promise<T | null>((settle, fail) => {
    if (sending.closed) {
      settle(null);
      return;
    }
    const stop = () => settle(null);
    sending.once('close', stop);
    work.then(settle, fail).finally(() => sending.off('close', stop));
  });
}

/**
 * Writes `body` to `sending` a piece at a time, each read once the last was flushed, then ends it.
 * A body that fails destroys the request (never ended: its Content-Length is not reached); a
 * request that closes first (answered early, aborted, the connection lost) stops the reading.
 */
async function writeStreamed(sending: ClientRequest, body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  try {
    for (;;) {
      const next = await unlessClosed(sending, reader.read());
      if (next === null) break;
      if (next.done) {
        sending.end();
        return;
      }
      const flushed = new Promise<void>((done) => sending.write(next.value, () => done()));
      if ((await unlessClosed(sending, flushed)) === null) break;
    }
    await reader.cancel();
  } catch (error) {
    sending.destroy(error instanceof Error ? error : new Error(String(error)));
    await reader.cancel(error).catch(() => undefined);
  }
}
