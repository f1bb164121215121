/**
 * Image downloads and signed uploads with their network ports injected: a scripted resolver, and
 * a pinned fetch that plays remote hosts by sending each pinned (public) address to a loopback
 * server. The core decides which address to pin; these fakes only carry out that decision, so a
 * test that sees the right server reached proves the core pinned the right address. And the
 * ordinary fetch on a network whose DNS is such a resolver, which asks it again at each request.
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { downloadOnce, type DownloadOptions } from '../../electron/core/download/download-image';
import type { DownloadOutcome } from '../../electron/core/download/download-outcome';
import { createPinnedFetch } from '../../electron/core/download/pinned-fetch';
import type { FetchLike, PinnedFetch, ResolvedAddress, Resolver } from '../../electron/ports/http';
import { silentLogger } from '../../electron/ports/logger';
import { testImageEngine } from './image-engine';

/** Settings as Gallery builds them (its defaults), with the given ports. */
export function downloadOptions(
  root: string,
  ports: Partial<Pick<DownloadOptions, 'imageFetch' | 'resolver' | 'classify'>> = {},
): DownloadOptions {
  return {
    root,
    fetch: () => Promise.reject(new Error('the service fetch must not carry images')),
    maxImageBytes: 64 * 1024 * 1024,
    maxPixels: 100_000_000,
    thumbnailSize: 384,
    downloadTimeoutMs: 5_000,
    maxRedirects: 5,
    logger: silentLogger,
    imageEngine: testImageEngine,
    now: Date.now,
    ...ports,
  };
}

/** One attempt of image 0 of a task at `url`, into `<root>/task`. */
export function downloadWith(
  options: DownloadOptions,
  url: string,
  baseUrl: string,
): Promise<DownloadOutcome> {
  return downloadOnce(options, { url, baseUrl, folder: join(options.root, 'task'), index: 0 });
}

const family = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

/**
 * A resolver that answers from a script: `answers[name]` is the list of answers, one per call
 * (the last one repeats). Records every name it was asked.
 */
export function scriptedResolver(answers: Record<string, string[][]>): Resolver & {
  asked: string[];
} {
  const asked: string[] = [];
  const calls = new Map<string, number>();
  const resolver = async (host: string): Promise<ResolvedAddress[]> => {
    asked.push(host);
    const script = answers[host];
    if (!script) throw Object.assign(new Error(`no such name ${host}`), { code: 'ENOTFOUND' });
    const call = calls.get(host) ?? 0;
    calls.set(host, call + 1);
    const addresses = script[Math.min(call, script.length - 1)] ?? [];
    return addresses.map((address) => ({ address, family: family(address) }));
  };
  return Object.assign(resolver, { asked });
}

/**
 * A pinned fetch for hosts that do not exist: the request goes to `routes[pin.address]` (a
 * loopback origin) with the URL's path, through the real pinned fetch. Records every pin.
 */
export function routedFetch(routes: Record<string, string>): PinnedFetch & {
  pins: ResolvedAddress[];
} {
  const pins: ResolvedAddress[] = [];
  const real = createPinnedFetch();
  const routed: PinnedFetch = (url, init, address) => {
    pins.push(address);
    const origin = routes[address.address];
    if (!origin) return Promise.reject(new Error(`test: nothing at ${address.address}`));
    const target = new URL(origin);
    const local = new URL(url);
    local.protocol = target.protocol;
    local.host = target.host;
    return real(local.href, init, { address: target.hostname, family: 4 });
  };
  return Object.assign(routed, { pins });
}

/**
 * Node's fetch on a network whose DNS is `resolve`: a name is resolved again at each request and
 * the connection goes to its first answer, as a fetch that resolves on its own would go (a
 * rebinding DNS answers the check one address and this another). Literals connect as they are.
 */
export function resolvingFetch(resolve: Resolver): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    if (!isIP(target.hostname.replace(/^\[(.*)\]$/, '$1'))) {
      const [first] = await resolve(target.hostname);
      if (!first) throw new Error(`test: ${target.hostname} has no address`);
      target.hostname = first.family === 6 ? `[${first.address}]` : first.address;
    }
    return fetch(target.href, init);
  };
}
