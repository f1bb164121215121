/**
 * Who listens at a loopback address, read from Linux's socket tables (/proc/net/tcp and tcp6).
 * Another local user can start a server on a loopback port before the real one (ComfyUI's 8188,
 * a gateway's): it would receive the prompts, the inputs and the key. Linux says which user owns
 * each listening socket; macOS and Windows have no cheap equivalent, and where the tables cannot
 * be read (no /proc, a container that hides it) the owner is unknown and nothing is refused.
 *
 * Each row: `sl local rem st tx:rx tr:when retrnsmt uid …`, the local address in hex as the
 * kernel's 32-bit words in host byte order (IPv4 one word, IPv6 four), the port in hex, `0A` for
 * LISTEN. Addresses are kept in the URL parser's spelling (`127.0.0.1`, `[::1]`,
 * `[::ffff:7f00:1]`), so a row and a URL's host compare as strings.
 */
import { readFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';
import { endianness } from 'node:os';
import { isLocalhostName } from './url-policy';

/** A listening TCP socket: its local address (URL spelling), port and owner's uid. */
export interface Listener {
  readonly address: string;
  readonly port: number;
  readonly uid: number;
}

/** The two tables' text; null for a table that could not be read. */
export interface SocketTables {
  readonly tcp: string | null;
  readonly tcp6: string | null;
}

const LISTEN = '0A';
const ROW =
  /^\s*\d+:\s+([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})\s+\S+\s+([0-9A-Fa-f]{2})\s+\S+\s+\S+\s+\S+\s+(\d+)\s/;

/** One 32-bit word of the table (host byte order) as its four bytes in network order. */
function wordBytes(hex: string, littleEndian: boolean): number[] {
  const word = Buffer.alloc(4);
  const value = Number.parseInt(hex, 16);
  if (littleEndian) word.writeUInt32LE(value);
  else word.writeUInt32BE(value);
  return [...word];
}

/** A table's address as the URL parser spells it; null for a malformed one. */
function addressOf(hex: string, littleEndian: boolean): string | null {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => wordBytes(word, littleEndian));
  if (bytes.length === 4) return bytes.join('.');
  const groups = words.map((_, at) => {
    const [a = 0, b = 0, c = 0, d = 0] = bytes.slice(at * 4, at * 4 + 4);
    return `${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
  });
  return URL.parse(`http://[${groups.join(':')}]/`)?.hostname ?? null;
}

/**
 * The listening sockets of one table's text; rows that are not LISTEN, or not rows at all, are
 * skipped. `littleEndian`: the host's byte order (the kernel writes its words in it).
 */
export function parseListeners(
  table: string,
  littleEndian = endianness() === 'LE',
): readonly Listener[] {
  const found: Listener[] = [];
  for (const line of table.split('\n')) {
    const [, hexAddress = '', hexPort = '', state = '', uidText = ''] = ROW.exec(line) ?? [];
    if (state.toUpperCase() !== LISTEN) continue;
    const address = addressOf(hexAddress, littleEndian);
    const uid = Number(uidText);
    if (address === null || !Number.isSafeInteger(uid)) continue;
    found.push({ address, port: Number.parseInt(hexPort, 16), uid });
  }
  return found;
}

/** The addresses a connection to `host` may reach, each with its wildcards. */
interface Target {
  /** The address itself, as IPv4 and as its IPv4-mapped IPv6 form. */
  readonly exact: readonly string[];
  /** Sockets on every address of the family (and a dual-stack `[::]`). */
  readonly wildcard: readonly string[];
}

function targetsOf(hostname: string): readonly Target[] {
  const host = hostname.toLowerCase();
  // Either family may answer a name: both are judged.
  if (isLocalhostName(host)) return [...targetsOf('127.0.0.1'), ...targetsOf('[::1]')];
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped) {
    const [high, low] = mapped.slice(1).map((group) => Number.parseInt(group, 16)) as [
      number,
      number,
    ];
    return targetsOf([high >> 8, high & 255, low >> 8, low & 255].join('.'));
  }
  if (isIPv4(host)) {
    const v6 = URL.parse(`http://[::ffff:${host}]/`)?.hostname ?? host;
    return [{ exact: [host, v6], wildcard: ['0.0.0.0', '[::]'] }];
  }
  return [{ exact: [host], wildcard: ['[::]'] }];
}

/**
 * The uids of the sockets a connection to `hostname`:`port` may reach: those bound to the address
 * itself when there is one (the kernel prefers it), else those on a wildcard address. Empty when
 * nothing listens there; null when neither table could be read (the owner is unknown).
 */
export function listenerOwners(
  tables: SocketTables,
  hostname: string,
  port: number,
): readonly number[] | null {
  if (tables.tcp === null && tables.tcp6 === null) return null;
  const listeners = [tables.tcp, tables.tcp6]
    .flatMap((table) => (table === null ? [] : parseListeners(table)))
    .filter((listener) => listener.port === port);
  const owners = new Set<number>();
  for (const target of targetsOf(hostname)) {
    const on = (addresses: readonly string[]) =>
      listeners.filter((listener) => addresses.includes(listener.address));
    const exact = on(target.exact);
    for (const listener of exact.length > 0 ? exact : on(target.wildcard)) owners.add(listener.uid);
  }
  return [...owners];
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'latin1');
  } catch {
    return null;
  }
}

async function readBoth(): Promise<SocketTables> {
  const [tcp, tcp6] = await Promise.all([
    readOrNull('/proc/net/tcp'),
    readOrNull('/proc/net/tcp6'),
  ]);
  return { tcp, tcp6 };
}

let reading: Promise<SocketTables> | null = null;

/**
 * This host's socket tables (both null off Linux, or where /proc cannot be read). The kernel walks
 * its whole socket hash for each read (20 ms and more on a large or busy host), so the checks made
 * at once share the read under way (begun at most one read's time before the latest of them).
 */
export function readSocketTables(): Promise<SocketTables> {
  if (process.platform !== 'linux') return Promise.resolve({ tcp: null, tcp6: null });
  reading ??= readBoth().finally(() => {
    reading = null;
  });
  return reading;
}

/** The login name of `uid` from /etc/passwd, or null when it has none there. */
export async function userNameOf(uid: number): Promise<string | null> {
  const passwd = await readOrNull('/etc/passwd');
  for (const line of passwd?.split('\n') ?? []) {
    const [name, , id] = line.split(':');
    if (id === String(uid) && name && /^[\w.-]{1,64}$/.test(name)) return name;
  }
  return null;
}
