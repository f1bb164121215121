/**
 * The core's three transports behind the local-server gate (core/service/local-server-gate.ts):
 * the service's (proxies honoured), image downloads' and signed uploads' (both pinned to a checked
 * address). A loopback server another user of this computer runs is refused on each, unless the
 * user allowed its address; a ComfyUI's `/view` downloads carry its key as its requests do.
 *
 * The pinned transports judge each connection once made, before a byte is written
 * (pinned-dial.ts): the owner of the server's end of that very connection, so a server that binds
 * the port between a look and the connection is seen. The service's requests to a plain-http
 * server on this computer go the same way when the host asks (`pinLocalServers`: the app and the
 * CLI): Chromium's and undici's sockets cannot be judged before they write, and their own lookup
 * of a name could answer otherwise than the one judged (DNS rebinding, Chromium's resolver). No
 * proxy applies to this computer, so nothing is lost. So do https requests to an address written
 * as one (a loopback literal, `localhost`): judged by a look at the listener before the host's
 * transport connected, a server that took the port after the look read the request and its key
 * whenever it held a certificate the host trusts for that address (a local authority the user
 * added, shared with the other user). The pinned connection checks the certificate against the
 * name with Node's authorities and the system's (trusted-authorities.ts), as the same server's
 * image downloads and uploads do. An https NAME is not looked up (a
 * lookup before each request to a remote service would cost each of them; without the name's key
 * a squatter reads nothing): it goes through the host's transport after a look at the listener,
 * as requests where owners are not read (macOS, Windows), where nothing is judged.
 */
import { isIP } from 'node:net';
import type { FetchLike, PinnedFetch, ResolvedAddress } from '../../ports/http';
import {
  checkConnection,
  gateReadsOwners,
  guardLocalServers,
  guardPinnedLocalServers,
  isLocalhostName,
  pinsHere,
  type LocalServerGate,
} from '../service';
import { createPinnedFetch } from './pinned-fetch';

/** The core's transports; a pinned one not given is the default (direct, pinned, judged). */
export interface CoreTransports {
  readonly fetch: FetchLike;
  readonly imageFetch?: PinnedFetch | undefined;
  readonly signedFetch?: PinnedFetch | undefined;
}

/** What the gate is built from besides the allow list. */
interface GateChoices {
  /** Who listens (tests: another user). */
  readonly localServers?: Omit<LocalServerGate, 'allowed'> | undefined;
  /** The service's plain-http requests to this computer through the judged pinned transport. */
  readonly pinLocalServers?: boolean | undefined;
}

/** Connection errors after which the next address of a name is tried: nothing was sent. */
const TRY_NEXT = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EAFNOSUPPORT']);

/** `url` sent pinned to the first of `pins` that takes the connection. */
async function firstTaking(
  pinned: PinnedFetch,
  url: string,
  init: RequestInit,
  pins: readonly ResolvedAddress[],
): Promise<Response> {
  for (const [index, pin] of pins.entries()) {
    try {
      return await pinned(url, init, pin);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (index === pins.length - 1 || typeof code !== 'string' || !TRY_NEXT.has(code)) throw error;
    }
  }
  throw new TypeError('No address to connect to.');
}

/**
 * Whether the service's request to `url` goes pinned when it reaches this computer: plain http
 * (a name resolved once, here), or https to an address written as one (no lookup).
 */
function pinnable(url: URL | null): url is URL {
  if (url?.protocol === 'http:') return true;
  const host = url?.hostname ?? '';
  return (
    url?.protocol === 'https:' &&
    (isLocalhostName(host) || isIP(host.replace(/^\[|\]$/g, '')) !== 0)
  );
}

/** The service's `fetch` behind the gate ({@link gatedTransports}). */
function gatedServiceFetch(
  fetch: FetchLike,
  judged: PinnedFetch,
  gate: LocalServerGate,
  pin: boolean,
): FetchLike {
  const looked = guardLocalServers(fetch, gate);
  return async (url, init) => {
    const parsed = URL.parse(url);
    if (!pin || !pinnable(parsed) || !gateReadsOwners(gate)) return looked(url, init);
    const pins = await pinsHere(parsed, gate);
    return pins.length > 0 ? firstTaking(judged, url, init ?? {}, pins) : fetch(url, init);
  };
}

/**
 * Each of `given` (or its default) behind the gate; `allowed` is read at each request (a change
 * in Settings holds for the next one).
 */
export function gatedTransports(
  given: CoreTransports & GateChoices,
  allowed: () => readonly string[],
): Required<CoreTransports> {
  const gate: LocalServerGate = { ...given.localServers, allowed };
  const judged = createPinnedFetch({
    checkConnection: (url, socket) => checkConnection(url, socket, gate),
  });
  // A pinned transport a test gives is looked at before it is asked (it may not dial).
  const pinned = (fetch: PinnedFetch | undefined) =>
    fetch ? guardPinnedLocalServers(fetch, gate) : judged;
  return {
    fetch: gatedServiceFetch(given.fetch, judged, gate, given.pinLocalServers === true),
    imageFetch: pinned(given.imageFetch),
    signedFetch: pinned(given.signedFetch),
  };
}
