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
 * undici is loaded at the first request that needs it, not when the CLI starts: most commands
 * (list, rate, tag, template…) send nothing, and loading it was a fifth of every start's CPU.
 *
 * That undici is the npm package, not the one inside Node: it does not know Node's own FormData
 * (a different class) and would send one as the text "[object FormData]". A FormData body (the
 * keyed uploads' multipart forms: Replicate's files) is therefore encoded here by Node's own
 * Response (core/base/request-body.ts), parts in order, with its multipart Content-Type and
 * boundary.
 */
import { lookup as systemLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type * as UndiciModule from 'undici';
import type { Agent, Dispatcher } from 'undici';
import { encodeBody } from '../core/base/request-body';
import { isLocalhostName, isLoopbackHost } from '../core/service/url-policy';
import type { FetchLike } from '../ports/http';

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
  return new EnvHttpProxyAgent({
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy !== undefined ? { noProxy } : {}),
    connect: { lookup: loopbackFirstLookup },
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

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

export function createNodeFetch(env: NodeJS.ProcessEnv = process.env): FetchLike {
  const proxied = wantsProxy(env);
  let proxy: Dispatcher | null = null;
  let direct: Agent | null = null;
  const send = async (
    url: string,
    init: RequestInit | undefined,
    dispatcher: (loaded: Undici) => Dispatcher,
  ): Promise<Response> => {
    const loaded = await undici();
    const sent = await withEncodedForm(init);
    return loaded.fetch(url, {
      ...(sent as Parameters<Undici['fetch']>[1]),
      dispatcher: dispatcher(loaded),
    }) as unknown as Promise<Response>;
  };
  return (url, init) => {
    const host = hostOf(url);
    if (isLoopbackHost(host)) {
      return send(url, init, ({ Agent }) => {
        direct ??= new Agent({ connect: { lookup: loopbackFirstLookup } });
        return direct;
      });
    }
    if (!proxied) return fetch(url, init);
    return send(url, init, (loaded) => (proxy ??= proxyAgent(loaded, env)));
  };
}
