/**
 * The core's three transports behind the local-server gate (core/service/local-server-gate.ts):
 * the service's (proxies honoured), image downloads' and signed uploads' (both pinned to a checked
 * address). A loopback server another user of this computer runs is refused on each, unless the
 * user allowed its address; a ComfyUI's `/view` downloads carry its key as its requests do.
 */
import type { FetchLike, PinnedFetch } from '../../ports/http';
import { guardLocalServers, guardPinnedLocalServers, type LocalServerGate } from '../service';
import { createPinnedFetch } from './pinned-fetch';

/** The core's transports; a pinned one not given is the default (direct, pinned). */
export interface CoreTransports {
  readonly fetch: FetchLike;
  readonly imageFetch?: PinnedFetch | undefined;
  readonly signedFetch?: PinnedFetch | undefined;
}

/**
 * Each of `given` (or its default) behind the gate; `allowed` is read at each request (a change
 * in Settings holds for the next one). `given.localServers`: who listens (tests: another user).
 */
export function gatedTransports(
  given: CoreTransports & { readonly localServers?: Omit<LocalServerGate, 'allowed'> | undefined },
  allowed: () => readonly string[],
): Required<CoreTransports> {
  const gate: LocalServerGate = { ...given.localServers, allowed };
  const pinned = (fetch: PinnedFetch | undefined) =>
    guardPinnedLocalServers(fetch ?? createPinnedFetch(), gate);
  return {
    fetch: guardLocalServers(given.fetch, gate),
    imageFetch: pinned(given.imageFetch),
    signedFetch: pinned(given.signedFetch),
  };
}
