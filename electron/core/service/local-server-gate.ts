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
import { isIPv4 } from 'node:net';
import { sentence } from '../../../shared/i18n/sentence';
import { cleanText } from '../../../shared/service/wire';
import type { FetchLike, PinnedFetch, ResolvedAddress } from '../../ports/http';
import {
  connectionOwner,
  listenerOwners,
  readSocketTables,
  userNameOf,
  type SocketTables,
  type SocketTableName,
  mayBeIPv4,
  ownAddressListeners,
} from './local-owner';
import { hostsReached, landsHere, type ReachSources } from './local-reach';
import { ServiceError } from './service-error';
import { isLoopbackHost } from './url-policy';

/** How the gate learns who listens, who it runs as, and what the user allowed. */
export interface LocalServerGate extends ReachSources {
  /** The addresses the user allowed (`host:port`, {@link localServerAddress}'s spelling). */
  readonly allowed: () => readonly string[];
  /** The socket tables now; default this host's (local-owner.ts). */
  readonly tables?: (names?: readonly SocketTableName[]) => Promise<SocketTables>;
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

/** The refusal of another user's server at `address` (`host:port`): nothing was sent. */
async function refusal(address: string, uid: number, gate: LocalServerGate): Promise<ServiceError> {
  return new ServiceError({
    kind: 'config',
    message: sentence('error.service.localServerOtherUser', {
      address,
      user: await ownerNamed(uid, gate),
    }),
    mayHaveReachedService: false,
  });
}

/** This process's uid and how the tables are read; null where no owner can be read. */
function judging(gate: LocalServerGate) {
  const ownUid = gate.ownUid === undefined ? (process.getuid?.() ?? null) : gate.ownUid;
  // Off Linux the owner cannot be read: no name is resolved for nothing.
  const tablesNow = gate.tables ?? (process.platform === 'linux' ? readSocketTables : null);
  return ownUid === null || tablesNow === null ? null : { ownUid, tablesNow };
}

/** Whether the gate reads owners here at all (Linux, a uid): else every request goes unjudged. */
export function gateReadsOwners(gate: LocalServerGate): boolean {
  return judging(gate) !== null;
}

/**
 * Refuses `url` when it reaches a loopback server (or one on this computer's own addresses) that
 * another user runs and the user has not allowed; resolves when it may be sent (it leaves this
 * computer, the server is ours, nobody listens, the owner is unknown). Judged at the address the
 * connection reaches (local-reach.ts): `pinned` when the transport connects there (image
 * downloads, signed uploads), else the literal, or (over plain http) each address the name
 * resolves to now. The allow list is read for the URL's own `host:port` as the user wrote it and
 * for the address reached; the refusal names the URL's spelling when it is a loopback one, else
 * the address. A check BEFORE connecting: whoever binds the port between it and the connection is
 * not seen ({@link checkConnection} judges the connection itself, for the transports that can).
 * @throws ServiceError of kind `config`; nothing sent.
 */
export async function checkLocalServer(
  url: string,
  gate: LocalServerGate,
  pinned?: ResolvedAddress,
): Promise<void> {
  const judge = judging(gate);
  const parsed = URL.parse(url);
  const written = parsed && addressOfUrl(parsed);
  if (judge === null || !parsed || !written) return;
  const port = written.slice(written.lastIndexOf(':') + 1);
  const hosts = await hostsReached(parsed, pinned, gate);
  if (hosts.length === 0) return;
  const allowed = gate.allowed();
  const judged = hosts.filter((host) => !allowed.includes(`${host}:${port}`));
  if (judged.length === 0 || allowed.includes(written)) return;
  // A listener on an IPv4 address itself is read from the IPv4 table alone (ownAddressListeners).
  const tcp = judged.every((host) => isIPv4(host)) ? (await judge.tablesNow(['tcp'])).tcp : null;
  let tables: SocketTables | null = null;
  for (const host of judged) {
    const owners =
      ownAddressListeners(tcp, host, Number(port)) ??
      listenerOwners((tables ??= await judge.tablesNow()), host, Number(port));
    const other = owners?.find((uid) => uid !== judge.ownUid);
    if (other === undefined) continue;
    const address = isLoopbackHost(parsed.hostname) ? written : `${host}:${port}`;
    throw await refusal(address, other, gate);
  }
}

/** The ends of a connected socket, as Node's `Socket` names them. */
export interface ConnectedEnds {
  readonly localAddress?: string | undefined;
  readonly localPort?: number | undefined;
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
}

/**
 * Refuses a connection made for `url` that landed on a server of this computer another user
 * runs (unless the user allowed its address), judged once connected and before a byte of the
 * request is written: the owner is that of the server's end of THIS connection (local-owner.ts
 * `connectionOwner`), so a server that took the port after any earlier look is seen; where the
 * tables hold no such end, the listener there is judged. A connection that leaves this computer
 * costs no read of the tables.
 * @throws ServiceError of kind `config`; nothing sent (the caller closes the socket).
 */
export async function checkConnection(
  url: string,
  socket: ConnectedEnds,
  gate: LocalServerGate,
): Promise<void> {
  const judge = judging(gate);
  const { localAddress, localPort, remoteAddress, remotePort } = socket;
  if (judge === null || !localAddress || !remoteAddress || !localPort || !remotePort) return;
  const host = landsHere(remoteAddress, gate);
  if (host === null) return;
  const parsed = URL.parse(url);
  const written = parsed && addressOfUrl(parsed);
  const allowed = gate.allowed();
  if ((written && allowed.includes(written)) || allowed.includes(`${host}:${remotePort}`)) return;
  const server = { address: remoteAddress, port: remotePort };
  const client = { address: localAddress, port: localPort };
  // An IPv4 connection's server end is in the IPv4 table unless a dual-stack IPv6 socket took it:
  // that table is read first (its read begins now, after the connection was made), the IPv6 one
  // only when it does not say (the end not there, or a row that names no owner).
  const tcp = mayBeIPv4(remoteAddress) ? (await judge.tablesNow(['tcp'])).tcp : null;
  const ipv4Owner = connectionOwner({ tcp, tcp6: null }, client, server);
  const tables = ipv4Owner === null ? await judge.tablesNow() : null;
  const uid =
    ipv4Owner ??
    (tables && connectionOwner(tables, client, server)) ??
    (tables && listenerOwners(tables, host, remotePort)?.find((owner) => owner !== judge.ownUid)) ??
    undefined;
  if (uid === undefined || uid === judge.ownUid) return;
  const shown =
    parsed && written && isLoopbackHost(parsed.hostname) ? written : `${host}:${remotePort}`;
  throw await refusal(shown, uid, gate);
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
