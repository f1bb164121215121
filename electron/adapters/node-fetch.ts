/**
 * `fetch` for plain Node (the CLI): undici's, through a proxy when HTTPS_PROXY / HTTP_PROXY are set,
 * bypassing it for hosts in NO_PROXY. (In the app, Electron's net.fetch follows the system proxy,
 * and Chromium's implicit bypass rules keep loopback off it.)
 *
 * This computer never goes through a proxy, whatever NO_PROXY says: a plain-http service on
 * loopback would otherwise hand the key, in clear, to whatever listens at HTTP_PROXY. And the
 * `localhost` names are answered here with loopback, never asked of a resolver (a hosts file,
 * DNS or a search domain could send them elsewhere), as Chromium does in the app.
 *
 * undici is loaded at the first request, not when the CLI starts: most commands (list, rate, tag,
 * template…) send nothing, and loading it was a fifth of every start's CPU. Every request goes
 * through it (not Node's own fetch), so that each failure can say whether its request was handed to
 * a connection ({@link FetchRejection}): "not sent" and "may have reached the service" are told
 * apart by what the transport did, not by guessing from error codes.
 *
 * That undici is the npm package, not the one inside Node: it does not know Node's own FormData
 * (a different class) and would send one as the text "[object FormData]". A FormData body (the
 * keyed uploads' multipart forms: Replicate's files) is therefore encoded here by Node's own
 * Response (core/base/request-body.ts), parts in order, with its multipart Content-Type and
 * boundary.
 *
 * A streamed body (a ReadableStream: a submit's inline images, read from their files as they are
 * sent) goes through undici's `request`, not its `fetch`: fetch in manual redirect mode clones the
 * request, and the clone tees the body, keeping every byte sent in the branch no one reads until
 * the answer comes (16 MiB of image held per submit for as long as the service takes to answer).
 * `request` follows no redirect and keeps nothing: the body's bytes are let go as they are written,
 * framed by the `Content-Length` the caller gave. Its answer is made the Response fetch would give
 * in manual mode (the status, the headers, the body as it comes; a redirect's Location as sent).
 */
import { lookup as systemLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type * as UndiciModule from 'undici';
import type { Agent, Dispatcher } from 'undici';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { encodeBody } from '../core/base';
import { trustedContext } from '../core/download';
import { readableBody } from '../core/fs';
import { isLocalhostName, isLoopbackHost } from '../core/service';
import { FetchRejection, type FetchLike } from '../ports/http';

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** Loopback in the order tried: IPv4 first, then IPv6 (happy eyeballs moves on when refused). */
const LOOPBACK: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `net.connect`'s lookup: loopback for the `localhost` names, the system resolver for the rest
 * (undici only calls it for names; IP literals connect as they are).
 */
export function loopbackFirstLookup(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  if (!isLocalhostName(hostname)) {
    (systemLookup as (name: string, how: LookupOptions, done: LookupCallback) => void)(
      hostname,
      options,
      callback,
    );
    return;
  }
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
  const addresses = LOOPBACK.filter((entry) => !family || entry.family === family);
  const [first] = addresses;
  if (options.all) callback(null, addresses);
  else callback(null, first?.address ?? '127.0.0.1', first?.family ?? 4);
}

type Undici = typeof UndiciModule;
let undiciModule: Promise<Undici> | null = null;
const undici = (): Promise<Undici> => (undiciModule ??= import('undici'));

const wantsProxy = (env: NodeJS.ProcessEnv): boolean =>
  PROXY_VARIABLES.some((name) => Boolean(env[name]));

function proxyAgent({ EnvHttpProxyAgent }: Undici, env: NodeJS.ProcessEnv): Dispatcher {
  // Read from the env given (not only process.env), so what is tested is what runs.
  const pick = (upper: string): string | undefined =>
    env[upper] || env[upper.toLowerCase()] || undefined;
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY') ?? httpProxy;
  const noProxy = pick('NO_PROXY');
  const secureContext = trustedContext();
  return new EnvHttpProxyAgent({
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy !== undefined ? { noProxy } : {}),
    connect: { lookup: loopbackFirstLookup, secureContext },
    // The service through the proxy's tunnel, and an https proxy itself.
    requestTls: { secureContext },
    proxyTls: { secureContext },
  });
}

/**
 * The request with a FormData body encoded as multipart/form-data bytes (its Content-Type, with
 * the boundary, replacing any the caller set); any other body as it is.
 */
async function withEncodedForm(init: RequestInit | undefined): Promise<RequestInit | undefined> {
  if (!(init?.body instanceof FormData)) return init;
  const encoded = await encodeBody(init.body, init.headers);
  return { ...init, headers: Object.fromEntries(encoded.headers), body: encoded.bytes };
}

/** Statuses whose responses have no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A request with a streamed body sent through undici's `request` (no clone, no tee, no redirect
 * followed), answered as fetch answers in manual mode.
 */
async function sendStreamed(
  loaded: Undici,
  dispatcher: Dispatcher,
  url: string,
  init: RequestInit & { body: ReadableStream<Uint8Array> },
): Promise<Response> {
  const method = (init.method ?? 'POST').toUpperCase() as Dispatcher.HttpMethod;
  const answer = await loaded.request(url, {
    dispatcher,
    method,
    headers: Object.fromEntries(new Headers(init.headers)),
    body: Readable.fromWeb(init.body as NodeReadableStream<Uint8Array>),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  const empty = NULL_BODY_STATUSES.has(answer.statusCode) || method === 'HEAD';
  if (empty) answer.body.resume();
  return new Response(empty ? null : readableBody(answer.body), {
    status: answer.statusCode,
    headers,
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * `base` for one request, noting when the request is handed to its connection: undici starts a
 * request (`onRequestStart`) on a socket that is connected (TLS handshake done) and writes it at
 * once, so a failure before then (a refused connection, a name not found, a certificate) has sent
 * nothing, and one after may have reached the service.
 */
function watched(base: Dispatcher, written: () => void): Dispatcher {
  return base.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, {
        onRequestStart: (controller, context) => {
          written();
          handler.onRequestStart?.(controller, context);
        },
        onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
        onResponseStart: (...args) => handler.onResponseStart?.(...args),
        onResponseData: (...args) => handler.onResponseData?.(...args),
        onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
        onResponseError: (...args) => handler.onResponseError?.(...args),
      }),
  );
}

/**
 * The CLI's fetch. Each rejection but an abort is a {@link FetchRejection} that says whether the
 * request was handed to a connection (`written`) or not (`unsent`): the service client tells
 * "nothing was sent" from "may have reached the service" by it, not by guessing from codes.
 */
export function createNodeFetch(env: NodeJS.ProcessEnv = process.env): FetchLike {
  const proxied = wantsProxy(env);
  let proxy: Dispatcher | null = null;
  let direct: Agent | null = null;
  let remote: Agent | null = null;
  // TLS trusts what the pinned transports trust: Node's authorities and the system's store
  // (core/download/trusted-authorities.ts), as the app's Chromium trusts the system's.
  const pick = (url: string) => (loaded: Undici) => {
    if (isLoopbackHost(hostOf(url))) {
      const connect = { lookup: loopbackFirstLookup, secureContext: trustedContext() };
      return (direct ??= new loaded.Agent({ connect }));
    }
    if (proxied) return (proxy ??= proxyAgent(loaded, env));
    return (remote ??= new loaded.Agent({ connect: { secureContext: trustedContext() } }));
  };
  return async (url, init) => {
    let written = false;
    try {
      const loaded = await undici();
      const sent = await withEncodedForm(init);
      const dispatcher = watched(pick(url)(loaded), () => (written = true));
      if (sent?.body instanceof ReadableStream) {
        return await sendStreamed(loaded, dispatcher, url, { ...sent, body: sent.body });
      }
      return (await loaded.fetch(url, {
        ...(sent as Parameters<Undici['fetch']>[1]),
        dispatcher,
      })) as unknown as Response;
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      throw new FetchRejection(written ? 'written' : 'unsent', error);
    }
  };
}
