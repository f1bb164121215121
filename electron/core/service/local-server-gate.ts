/**
 * Nothing goes to a loopback server another user of this computer runs, unless the user allowed
 * its address. Such a server may have taken the port before the real one started (a squatter on
 * ComfyUI's 8188, on a local gateway's port): it would receive the prompts, the input images and
 * the key. The owner is read from the socket tables (local-owner.ts) before each request, in main
 * and the CLI alike (the core's transport is wrapped once, pictor-core.ts), never from the window.
 * A system-service ComfyUI under its own user is legitimate: the user allows its address in
 * Settings (`allowedLocalServers`, one `host:port` each). Where the owner cannot be read (macOS,
 * Windows, no /proc) requests go as before.
 */
import { sentence } from '../../../shared/i18n/sentence';
import { cleanText } from '../../../shared/service/wire';
import type { FetchLike, PinnedFetch, ResolvedAddress } from '../../ports/http';
import { listenerOwners, readSocketTables, userNameOf, type SocketTables } from './local-owner';
import { ServiceError } from './service-error';
import { isLoopbackHost } from './url-policy';

/** How the gate learns who listens, who it runs as, and what the user allowed. */
export interface LocalServerGate {
  /** The addresses the user allowed (`host:port`, {@link localServerAddress}'s spelling). */
  readonly allowed: () => readonly string[];
  /** The socket tables now; default this host's (local-owner.ts). */
  readonly tables?: () => Promise<SocketTables>;
  /** This process's uid; default `process.getuid()`, none off POSIX (nothing is refused). */
  readonly ownUid?: number | null;
  /** A uid's login name for the sentence; default from /etc/passwd. */
  readonly userName?: (uid: number) => Promise<string | null>;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** `url`'s server as the allow list names it: `host:port`, the port always written. */
function addressOfUrl(url: URL): string | null {
  const port = url.port || DEFAULT_PORTS[url.protocol];
  return port === undefined ? null : `${url.hostname}:${port}`;
}

/**
 * An allow-list entry as it is kept (`127.0.0.1:8188`, `[::1]:8188`, `localhost:8188`; an
 * address with its scheme and no port takes the scheme's), or null when it is not a loopback
 * server's address (a path, a query, a name elsewhere, no port).
 */
export function localServerAddress(text: string): string | null {
  const trimmed = text.trim();
  // The URL parser drops tabs and line breaks inside: `127.0.0.1:81\n88` is not a spelling.
  if ([...trimmed].some((char) => char <= ' ' || char === '\x7f')) return null;
  const withScheme = /^https?:\/\//i.test(trimmed);
  if (!withScheme && !/:\d+$/.test(trimmed)) return null;
  const url = URL.parse(withScheme ? trimmed : `http://${trimmed}`);
  if (!url || url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' || !isLoopbackHost(url.hostname)) return null;
  return addressOfUrl(url);
}

async function ownerNamed(uid: number, gate: LocalServerGate): Promise<string> {
  const name = await (gate.userName ?? userNameOf)(uid).catch(() => null);
  return name === null ? `uid ${uid}` : `${cleanText(name)}, uid ${uid}`;
}

/** The host a connection goes to: the address it is pinned to, else the URL's host. */
function hostReached(url: URL, pinned: ResolvedAddress | undefined): string {
  if (!pinned) return url.hostname;
  return pinned.family === 6 ? `[${pinned.address}]` : pinned.address;
}

/**
 * Refuses `url` when it names a loopback server that another user runs and the user has not
 * allowed; resolves when it may be sent (not loopback, ours, nobody listening, owner unknown).
 * `pinned`: the address the connection is pinned to (an image download's): its owner is judged,
 * the allow list read for the URL's own `host:port` as the user wrote it.
 * @throws ServiceError of kind `config`; nothing sent.
 */
export async function checkLocalServer(
  url: string,
  gate: LocalServerGate,
  pinned?: ResolvedAddress,
): Promise<void> {
  const ownUid = gate.ownUid === undefined ? (process.getuid?.() ?? null) : gate.ownUid;
  const parsed = URL.parse(url);
  if (ownUid === null || !parsed) return;
  const host = hostReached(parsed, pinned);
  if (!isLoopbackHost(host) && !isLoopbackHost(parsed.hostname)) return;
  const address = addressOfUrl(parsed);
  if (address === null || gate.allowed().includes(address)) return;
  const tables = await (gate.tables ?? readSocketTables)();
  const owners = listenerOwners(tables, host, Number(address.split(':').pop()));
  const other = owners?.find((uid) => uid !== ownUid);
  if (other === undefined) return;
  throw new ServiceError({
    kind: 'config',
    message: sentence('error.service.localServerOtherUser', {
      address,
      user: await ownerNamed(other, gate),
    }),
    mayHaveReachedService: false,
  });
}

/** `fetch` that first refuses a loopback server another user runs ({@link checkLocalServer}). */
export function guardLocalServers(fetch: FetchLike, gate: LocalServerGate): FetchLike {
  return async (url, init) => {
    await checkLocalServer(url, gate);
    return fetch(url, init);
  };
}

/** `fetch` pinned to an address, that first refuses another user's loopback server there. */
export function guardPinnedLocalServers(fetch: PinnedFetch, gate: LocalServerGate): PinnedFetch {
  return async (url, init, address) => {
    await checkLocalServer(url, gate, address);
    return fetch(url, init, address);
  };
}
