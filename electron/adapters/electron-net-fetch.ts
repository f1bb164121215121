/**
 * The core's FetchLike over Chromium's network stack (system proxy settings, PAC files and
 * the OS certificate store are honoured), for the app. The CLI uses node-fetch.ts instead.
 *
 * `redirect: 'manual'` (every request the core sends: the service client follows same-origin
 * redirects itself, the image downloader checks each hop against the URL policy) cannot go
 * through `net.fetch`: Electron passes the mode to `net.request`, where a redirect nobody
 * follows synchronously cancels the request and `net.fetch` rejects with "Redirect was
 * cancelled", with neither the status nor the Location (electron/electron#43715, working as
 * documented for ClientRequest's `redirect` event). So manual requests use `net.request`
 * directly (same session, so the same proxy settings) and turn its `redirect` event into the
 * response undici gives in manual mode: the 3xx status with its headers and an absolute
 * `Location`, no body. Other modes go to `net.fetch` unchanged.
 *
 * Requests to this computer (loopback addresses, `localhost` names) go through a session of their
 * own whose proxy is fixed to `direct` ({@link LOOPBACK_PARTITION}). Chromium keeps loopback off
 * a proxy by its implicit bypass rules only until a bypass list says `<-loopback>` (a system
 * setting, `no_proxy` on Linux, a habit of people who debug through a local proxy): a plain-http
 * service on this computer would then hand the key, in clear, to whatever listens at the proxy.
 * Here it never goes through one, whatever the settings say.
 *
 * A streamed body (a ReadableStream: a submit's inline images, read from their files as they are
 * sent) is written a piece at a time with `chunkedEncoding`, each piece once the last was taken by
 * the network service: without it `net.request` gathers the whole body in main before it starts.
 * Chromium refuses a `Content-Length` set by the caller (net::ERR_INVALID_ARGUMENT), so the length
 * the core gives is dropped and the body goes chunked (over HTTP/2 in frames, with no length).
 *
 * A request that fails once bytes of its body were handed to the network is rejected with a
 * {@link FetchRejection} `written`: Chromium fails a request on an open connection with the same
 * words it uses before connecting (`net::ERR_INTERNET_DISCONNECTED` is also the socket's ENETDOWN,
 * `net::ERR_ADDRESS_UNREACHABLE` its EHOSTUNREACH), and a submit the service may have read must
 * never be called "not sent" (the user would send it again and pay twice). Handed off means, for a
 * streamed body, a piece taken by the network service; for a whole body, the upload progress
 * Chromium reports (`getUploadProgress`: bytes read onto the connection, reported on a 100 ms
 * timer, never for a chunked body). What it cannot see, a whole body read onto the connection in
 * the last 100 ms before the failure, is left to the codes (network-errors.ts), as every failure
 * before a byte of the body went.
 */
import type { Readable } from 'node:stream';
import type {
  ClientRequest,
  ClientRequestConstructorOptions,
  IncomingMessage,
  Net,
  Session,
} from 'electron';
import { isLoopbackHost } from '../core/service';
import { FetchRejection, type FetchLike } from '../ports/http';
import { readableBody } from '../core/fs';

/** The part of Electron's `net` module this adapter uses. */
export type ElectronNet = Pick<Net, 'fetch' | 'request'>;

/** The part of Electron's `session` module this adapter uses. */
export interface ElectronSessions {
  fromPartition(partition: string, options?: { cache?: boolean }): Session;
}

/** The session of requests to this computer: in memory, no cache, proxy `direct`. */
const LOOPBACK_PARTITION = 'pictor-loopback';

/**
 * `net` bound to the loopback session, its proxy set to `direct` before its first request (made
 * on the first request to this computer); tried again after a failure to set it.
 */
function directNet(net: ElectronNet, sessions: ElectronSessions): () => Promise<ElectronNet> {
  let ready: Promise<ElectronNet> | null = null;
  const make = async (): Promise<ElectronNet> => {
    const direct = sessions.fromPartition(LOOPBACK_PARTITION, { cache: false });
    await direct.setProxy({ mode: 'direct' });
    return {
      fetch: (url, init) => direct.fetch(url, init),
      request: (options) =>
        net.request({
          ...(typeof options === 'string' ? { url: options } : options),
          session: direct,
        }),
    };
  };
  return () => {
    ready ??= make().catch((error: unknown) => {
      ready = null;
      throw error;
    });
    return ready;
  };
}

function hostOf(url: string): string {
  return URL.parse(url)?.hostname ?? '';
}

export function createElectronFetch(net: ElectronNet, sessions: ElectronSessions): FetchLike {
  const loopback = directNet(net, sessions);
  return async (url, init) => {
    const through = isLoopbackHost(hostOf(url)) ? await loopback() : net;
    return init?.redirect === 'manual' ? manualFetch(through, url, init) : through.fetch(url, init);
  };
}

/** Statuses whose responses have no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Request bytes from any BodyInit (the core sends JSON strings, and FormData for the uploads'
 * multipart forms), with the Content-Type the body itself implies (a form's boundary), which
 * `net.request` would otherwise never learn.
 */
async function bodyBytes(
  body: RequestInit['body'],
): Promise<{ bytes: Buffer; type: string | null } | null> {
  if (body === undefined || body === null) return null;
  const encoded = new Response(body);
  return {
    bytes: Buffer.from(await encoded.arrayBuffer()),
    type: encoded.headers.get('content-type'),
  };
}

function requestOptions(
  url: string,
  init: RequestInit,
  bodyType: string | null,
): ClientRequestConstructorOptions {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  // A form's boundary is the body's own: a Content-Type without it could not be parsed.
  if (bodyType?.startsWith('multipart/form-data')) {
    headers['content-type'] = bodyType;
  }
  return {
    url,
    method: (init.method ?? 'GET').toUpperCase(),
    redirect: 'manual',
    headers,
    // As net.fetch does: fetch's default `same-origin` needs an origin, which main has not.
    credentials: init.credentials === 'omit' ? 'omit' : 'include',
    ...(init.cache ? { cache: init.cache } : {}),
  };
}

function redirectResponse(
  status: number,
  location: string,
  responseHeaders: Record<string, string[]>,
): Response {
  const headers = new Headers();
  for (const [name, values] of Object.entries(responseHeaders)) {
    for (const value of values) headers.append(name, value);
  }
  // Chromium hands over the target already resolved against the request URL.
  headers.set('location', location);
  return new Response(null, { status, headers });
}

function messageResponse(message: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // Electron's IncomingMessage is a Node Readable at run time (net.fetch relies on it too).
  const stream = message as unknown as Readable;
  const empty = NULL_BODY_STATUSES.has(message.statusCode) || method === 'HEAD';
  if (empty) stream.resume();
  const body = empty ? null : readableBody(stream);
  return new Response(body, {
    status: message.statusCode,
    statusText: message.statusMessage,
    headers,
  });
}

async function manualFetch(net: ElectronNet, url: string, init: RequestInit): Promise<Response> {
  const signal = init.signal ?? null;
  if (signal?.aborted) throw abortReason(signal);
  if (init.body instanceof ReadableStream) {
    const headers = new Headers(init.headers);
    headers.delete('content-length');
    const options = requestOptions(url, { ...init, headers }, null);
    const request = net.request(options);
    request.chunkedEncoding = true;
    return exchange(request, options.method ?? 'POST', init.body, signal);
  }
  const body = await bodyBytes(init.body);
  if (signal?.aborted) throw abortReason(signal);
  const options = requestOptions(url, init, body?.type ?? null);
  return exchange(net.request(options), options.method ?? 'GET', body?.bytes ?? null, signal);
}

/**
 * Writes `body` to `request` a piece at a time, the next read once the last was taken, then ends
 * it. Stops reading when the body fails, or when `ended` aborts (the exchange settled: an answer
 * before the body's end needs no more of it, and a request aborted never calls a write back).
 */
async function writeStreamed(
  request: ClientRequest,
  body: ReadableStream<Uint8Array>,
  ended: AbortSignal,
  handedOff: () => void,
): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await unlessEnded(reader.read(), ended);
      if (done) break;
      const piece = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      const write = new Promise<void>((taken) =>
        request.write(piece, undefined, (error?: Error | null) => {
          if (!error) handedOff();
          taken();
        }),
      );
      await unlessEnded(write, ended);
    }
    request.end();
  } catch (error) {
    void reader.cancel(error).catch(() => undefined);
    if (!ended.aborted) throw error;
  }
}

/**
 * `work`, or a rejection once `ended` aborts. Not a race with one promise that stays pending: each
 * race would leave it a reaction holding the piece it settled with, every piece of the body kept.
 */
function unlessEnded<T>(work: Promise<T>, ended: AbortSignal): Promise<T> {
  return new Promise<T>((settle, fail) => {
    const stop = () => fail(new Error('The request ended.'));
    if (ended.aborted) {
      stop();
      return;
    }
    ended.addEventListener('abort', stop, { once: true });
    work.then(settle, fail).finally(() => ended.removeEventListener('abort', stop));
  });
}

/**
 * The rejection for `request`'s network error: a {@link FetchRejection} `written` once bytes of its
 * body were handed off (a streamed piece taken, or upload progress reported), else the error as it
 * came (its codes say whether it can have been sent).
 */
function failureOf(request: ClientRequest, error: Error, pieceTaken: boolean): unknown {
  const written = pieceTaken || request.getUploadProgress().current > 0;
  return written ? new FetchRejection('written', error) : error;
}

/** Sends `request` and settles with its redirect, its response or its error. */
function exchange(
  request: ClientRequest,
  method: string,
  body: Buffer | ReadableStream<Uint8Array> | null,
  signal: AbortSignal | null,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let stream: Readable | null = null;
    const ended = new AbortController();
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      ended.abort();
      outcome();
    };
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      settle(() => reject(reason));
      stream?.destroy(reason instanceof Error ? reason : new Error(String(reason)));
      request.abort();
    };
    const done = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('redirect', (status, _method, location, responseHeaders) => {
      done();
      settle(() => resolve(redirectResponse(status, location, responseHeaders)));
      // Not following: end this request quietly instead of letting it fail as cancelled.
      request.abort();
    });
    request.on('response', (message) => {
      stream = message as unknown as Readable;
      stream.once('close', done);
      try {
        const response = messageResponse(message, method);
        settle(() => resolve(response));
      } catch (error) {
        done();
        settle(() => reject(error));
        request.abort();
      }
    });
    let pieceTaken = false;
    request.on('error', (error) => {
      done();
      settle(() => reject(failureOf(request, error, pieceTaken)));
    });
    if (body instanceof ReadableStream) {
      const handedOff = () => (pieceTaken = true);
      writeStreamed(request, body, ended.signal, handedOff).catch((error: unknown) => {
        done();
        settle(() => reject(error));
        request.abort();
      });
    } else if (body) request.end(body);
    else request.end();
  });
}
