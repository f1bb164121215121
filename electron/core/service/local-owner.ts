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
import { isIP, isIPv4 } from 'node:net';
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
  /^\s*\d+:\s+([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{2})\s+\S+\s+\S+\s+\S+\s+(\d+)\s+\d+\s+(\d+)\s/;

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
 * A socket of a table: its state (`0A` LISTEN), both ends (URL spelling), owner's uid, and inode
 * (0 for a socket no process holds: queued, closed, TIME_WAIT).
 */
interface SocketRow {
  readonly state: string;
  readonly local: string;
  readonly localPort: number;
  readonly remote: string;
  readonly remotePort: number;
  readonly uid: number;
  readonly inode: string;
}

/**
 * The lines of `table` that may be a row with `port` at one of its ends (`:` and the port's four
 * hex digits, any case, then a space, as a row spells both ends): a connection's or listener's
 * owner is read from those rows alone, so the ROW pattern and the addresses' parse run over a few
 * lines, not every socket of the host (a busy host has thousands; each check read them all). A
 * row whose local port is `port` is always among them; every line when `port` is undefined.
 */
function linesAt(table: string, port: number | undefined): string[] {
  if (port === undefined) return table.split('\n');
  const lines: string[] = [];
  const at = new RegExp(`:${port.toString(16).padStart(4, '0')}\\s`, 'gi');
  for (let found = at.exec(table); found !== null; found = at.exec(table)) {
    const end = table.indexOf('\n', found.index);
    lines.push(table.slice(table.lastIndexOf('\n', found.index) + 1, end < 0 ? undefined : end));
    if (end < 0) break;
    at.lastIndex = end;
  }
  return lines;
}

/**
 * Which rows are wanted: those with `port` at their local end, and `remotePort` at their remote
 * one (a connection's), or LISTEN (`listening`). The rest are not parsed past their ports and
 * state: a busy server's port has a row per connection it took (each in TIME_WAIT a minute).
 */
interface RowsWanted {
  readonly port: number;
  readonly remotePort?: number;
  readonly listening?: boolean;
}

/** Whether a row of these ports and state is {@link RowsWanted}. */
function isWanted(wanted: RowsWanted, localPort: number, remotePort: number, state: string) {
  if (localPort !== wanted.port) return false;
  if (wanted.listening) return state.toUpperCase() === LISTEN;
  return wanted.remotePort === undefined || remotePort === wanted.remotePort;
}

/** The rows of `table`; given `wanted`, those alone ({@link RowsWanted}). */
function parseSockets(table: string, littleEndian: boolean, wanted?: RowsWanted): SocketRow[] {
  const found: SocketRow[] = [];
  for (const line of linesAt(table, wanted?.port)) {
    const [
      ,
      hexLocal = '',
      hexPort = '',
      hexRemote = '',
      hexRemotePort = '',
      state = '',
      uidText = '',
      inode = '',
    ] = ROW.exec(line) ?? [];
    const localPort = Number.parseInt(hexPort, 16);
    const remotePort = Number.parseInt(hexRemotePort, 16);
    // Another port's row (a client's end, whose remote port is `port`), another connection's, a
    // connection where a listener is wanted: its addresses unread.
    if (wanted && !isWanted(wanted, localPort, remotePort, state)) continue;
    const local = addressOf(hexLocal, littleEndian);
    const remote = addressOf(hexRemote, littleEndian);
    const uid = Number(uidText);
    if (local === null || remote === null || !Number.isSafeInteger(uid)) continue;
    found.push({
      state: state.toUpperCase(),
      local,
      localPort,
      remote,
      remotePort,
      uid,
      inode,
    });
  }
  return found;
}

/**
 * The listening sockets of one table's text; rows that are not LISTEN, or not rows at all, are
 * skipped. `littleEndian`: the host's byte order (the kernel writes its words in it).
 */
export function parseListeners(
  table: string,
  littleEndian = endianness() === 'LE',
  port?: number,
): readonly Listener[] {
  return parseSockets(
    table,
    littleEndian,
    port === undefined ? undefined : { port, listening: true },
  )
    .filter((row) => row.state === LISTEN)
    .map(({ local, localPort, uid }) => ({ address: local, port: localPort, uid }));
}

/**
 * The addresses a connection to `hostname` may reach, in the kernel's order of preference: each
 * tier is taken only when no socket listens in the tiers before it. For IPv4 the address itself
 * (an IPv4 socket, then an IPv4-mapped IPv6 one), then `0.0.0.0`, then a dual-stack `[::]`: the
 * kernel scores an IPv4 socket above an IPv6 one on the same address, and an IPv6-only `[::]`
 * never takes an IPv4 connection at all (only a `[::]` alone may be dual-stack and reached).
 */
function tiersOf(hostname: string): readonly (readonly string[])[][] {
  const host = hostname.toLowerCase();
  // Either family may answer a name: both are judged.
  if (isLocalhostName(host)) return [...tiersOf('127.0.0.1'), ...tiersOf('[::1]')];
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped) return tiersOf(ipv4OfMapped(mapped));
  if (isIPv4(host)) {
    const v6 = URL.parse(`http://[::ffff:${host}]/`)?.hostname ?? host;
    return [[[host], [v6], ['0.0.0.0'], ['[::]']]];
  }
  return [[[host], ['[::]']]];
}

function ipv4OfMapped(groups: RegExpExecArray): string {
  const [high, low] = groups.slice(1).map((group) => Number.parseInt(group, 16)) as [
    number,
    number,
  ];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** An address as IPv4 when it is an IPv4-mapped IPv6 one (a dual-stack socket's view of IPv4). */
function unmapped(address: string): string {
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(address);
  return mapped ? ipv4OfMapped(mapped) : address;
}

/** An address as a socket or a row gives it, in the spelling rows are compared in. */
function spelt(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '');
  const host = isIP(bare) === 6 ? URL.parse(`http://[${bare}]/`)?.hostname : bare;
  return unmapped(host ?? address);
}

/** The tables' rows `wanted`. */
function rowsAt(tables: SocketTables, wanted: RowsWanted): SocketRow[] {
  const littleEndian = endianness() === 'LE';
  return [tables.tcp, tables.tcp6].flatMap((table) =>
    table === null ? [] : parseSockets(table, littleEndian, wanted),
  );
}

/**
 * The uids of the sockets a connection to `hostname`:`port` may reach: those of the first tier of
 * addresses where any listens ({@link tiersOf}). Empty when nothing listens there; null when
 * neither table could be read (the owner is unknown).
 */
export function listenerOwners(
  tables: SocketTables,
  hostname: string,
  port: number,
): readonly number[] | null {
  if (tables.tcp === null && tables.tcp6 === null) return null;
  const listeners = [tables.tcp, tables.tcp6]
    .flatMap((table) => (table === null ? [] : parseListeners(table, undefined, port)))
    .filter((listener) => listener.port === port);
  const owners = new Set<number>();
  for (const tiers of tiersOf(hostname)) {
    const reached = tiers
      .map((addresses) => listeners.filter((listener) => addresses.includes(listener.address)))
      .find((found) => found.length > 0);
    for (const listener of reached ?? []) owners.add(listener.uid);
  }
  return [...owners];
}

/** One end of a TCP connection: an address (URL spelling) and a port. */
export interface Endpoint {
  readonly address: string;
  readonly port: number;
}

/**
 * The uid of the socket that took a connection from `from` to `to`: the server's end, whose row
 * has `to` as its local end and `from` as its remote one (ESTABLISHED once accepted or queued,
 * SYN_RECV before); the kernel gives it the uid of the listener that made it, so the owner is that
 * of the server actually connected to, not of whoever listened a moment before. Null when no such
 * row is in the tables (the server closed it already, or the connection went elsewhere), or when
 * its uid says nothing: a row no process holds (inode 0) prints uid 0 for a closed or TIME_WAIT
 * socket, and kernels before 6.16 print it for a connection still queued for accept too.
 */
export function connectionOwner(tables: SocketTables, from: Endpoint, to: Endpoint): number | null {
  const ours = { ...from, address: spelt(from.address) };
  const theirs = { ...to, address: spelt(to.address) };
  const row = rowsAt(tables, { port: theirs.port, remotePort: ours.port }).find(
    (candidate) =>
      candidate.state !== LISTEN &&
      candidate.localPort === theirs.port &&
      candidate.remotePort === ours.port &&
      spelt(candidate.local) === theirs.address &&
      spelt(candidate.remote) === ours.address,
  );
  if (row === undefined || (row.uid === 0 && row.inode === '0')) return null;
  return row.uid;
}

/**
 * The owners of the sockets listening on the IPv4 address `hostname` itself at `port`, from the
 * IPv4 table alone; null when none listens there. They are the first of its tiers ({@link tiersOf})
 * and only that table holds them (an IPv6 row is never spelt as an IPv4 address), so when any is
 * there they are {@link listenerOwners}' whole answer and the IPv6 table need not be read.
 */
export function ownAddressListeners(
  tcp: string | null,
  hostname: string,
  port: number,
): readonly number[] | null {
  if (tcp === null || !isIPv4(hostname)) return null;
  const here = parseListeners(tcp, undefined, port).filter((each) => each.address === hostname);
  return here.length === 0 ? null : [...new Set(here.map((each) => each.uid))];
}

/** Whether a connection to `address` (a socket's spelling) may have its server's end in the IPv4 table. */
export function mayBeIPv4(address: string): boolean {
  return isIPv4(spelt(address));
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'latin1');
  } catch {
    return null;
  }
}

/** One of the two socket tables. */
export type SocketTableName = keyof SocketTables;

/** A table's read under way, and the read that follows it for the calls made meanwhile. */
const shared: Record<
  SocketTableName,
  { reading: Promise<string | null> | null; next: Promise<string | null> | null }
> = {
  tcp: { reading: null, next: null },
  tcp6: { reading: null, next: null },
};

function startRead(name: SocketTableName): Promise<string | null> {
  const state = shared[name];
  const reading = readOrNull(`/proc/net/${name}`).finally(() => {
    if (state.reading === reading) state.reading = null;
  });
  state.reading = reading;
  return reading;
}

/** `name`'s table as it is at the call or later ({@link readSocketTables}). */
function readShared(name: SocketTableName): Promise<string | null> {
  const state = shared[name];
  const { reading } = state;
  if (reading === null) return startRead(name);
  state.next ??= reading.then(() => {
    state.next = null;
    return state.reading ?? startRead(name);
  });
  return state.next;
}

/**
 * This host's socket tables (both null off Linux, or where /proc cannot be read), as they are at
 * the call or later: a socket made before the call is in them. `names`: the tables read (the
 * others null; both by default). The kernel walks its whole socket hash for each read of either
 * table (20 ms and more on a large or busy host; an empty tcp6 costs as much as a full tcp), so
 * the calls made while a table's read is under way share the one read of it that starts when it
 * ends (the read under way began before them, and may have walked past a connection they just
 * made).
 */
export async function readSocketTables(
  names: readonly SocketTableName[] = ['tcp', 'tcp6'],
): Promise<SocketTables> {
  if (process.platform !== 'linux') return { tcp: null, tcp6: null };
  const [tcp, tcp6] = await Promise.all(
    (['tcp', 'tcp6'] as const).map((name) => (names.includes(name) ? readShared(name) : null)),
  );
  return { tcp: tcp ?? null, tcp6: tcp6 ?? null };
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
