/**
 * `fetch` for plain Node (the CLI): undici's, through a proxy when HTTPS_PROXY / HTTP_PROXY are set,
 * bypassing it for hosts in NO_PROXY. (In the app, Electron's net.fetch follows the system proxy.)
 */
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '../ports/http';

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

export function createNodeFetch(env: NodeJS.ProcessEnv = process.env): FetchLike {
  const proxied = PROXY_VARIABLES.some((name) => Boolean(env[name]));
  if (!proxied) return (url, init) => fetch(url, init);
  // Read from the env given (not only process.env), so what is tested is what runs.
  const pick = (upper: string): string | undefined =>
    env[upper] || env[upper.toLowerCase()] || undefined;
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY') ?? httpProxy;
  const noProxy = pick('NO_PROXY');
  const dispatcher = new EnvHttpProxyAgent({
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy !== undefined ? { noProxy } : {}),
  });
  return (url, init) =>
    undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    }) as unknown as Promise<Response>;
}
