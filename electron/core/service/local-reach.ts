/**
 * Which addresses of this computer a request reaches, whatever the URL's spelling: the gate
 * (local-server-gate.ts) judges the listener at the address connected to, not the name written.
 * The URL parser already turns `127.1`, `0x7f000001` and `[0:0:0:0:0:0:0:1]` into one spelling;
 * what is left to see through: a name that resolves to this computer (a hosts-file line, a DNS
 * answer of 127.x or ::1), an unspecified address (Linux connects `0.0.0.0` to 127.0.0.1 and `[::]`
 * to [::1]), an IPv4-mapped IPv6 literal, and this computer's own interface addresses (a LAN or
 * public address reaches a server listening on the wildcard here as loopback does).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { ResolvedAddress } from '../../ports/http';
import { sentence } from '../../../shared/i18n/sentence';
import { ServiceError } from './service-error';
import { isLocalhostName, isLoopbackHost } from './url-policy';

/** Every address a name resolves to, as the operating system answers (hosts file, DNS). */
type ReachResolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/**
 * How long the gate waits for the resolver: a name that has not answered by then is refused, not
 * sent unjudged (the transport's own lookup could answer this computer a moment later).
 */
const RESOLVE_WAIT_MS = 3_000;

/** `dns.lookup` with every address. */
const systemReachResolver: ReachResolver = async (host) => {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * `resolve(host)`, or no address when it fails (the transport's own lookup fails as well).
 * @throws ServiceError (`network`, nothing sent) when it has not answered in time.
 */
async function resolvedInTime(
  resolve: ReachResolver,
  host: string,
): Promise<readonly ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => {
      const message = sentence('error.service.localLookupSlow', { host: cleanHost(host) });
      fail(new ServiceError({ kind: 'network', message, mayHaveReachedService: false }));
    }, RESOLVE_WAIT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([resolve(host).catch(() => []), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A host name for a sentence: the URL parser's spelling holds no control or space. */
function cleanHost(host: string): string {
  return host.slice(0, 253);
}

/** An IP address in the URL parser's spelling (`127.0.0.1`, `[::1]`); null for none. */
function urlSpelling(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return null;
  return URL.parse(`http://${family === 6 ? `[${address}]` : address}/`)?.hostname ?? null;
}

/**
 * Where a connection to `host` (URL spelling) lands: an IPv4-mapped literal as its IPv4 address,
 * an unspecified address as Linux's loopback for it.
 */
function landing(host: string): string {
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (mapped) {
    const [high, low] = mapped.slice(1).map((group) => Number.parseInt(group, 16)) as [
      number,
      number,
    ];
    return landing([high >> 8, high & 255, low >> 8, low & 255].join('.'));
  }
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '[::]') return '[::1]';
  return host;
}

/** This computer's interface addresses in URL spelling (link-local ones with a zone left out). */
function ownAddresses(): ReadonlySet<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const spelt = urlSpelling(entry.address);
      if (spelt !== null) own.add(spelt);
    }
  }
  return own;
}

/** How the reach is read: the resolver and this computer's addresses (tests inject both). */
export interface ReachSources {
  readonly resolve?: ReachResolver | undefined;
  readonly ownAddresses?: (() => ReadonlySet<string>) | undefined;
}

/**
 * Where a connection to `address` (an IP as a socket gives it) lands, in URL spelling, when that
 * is this computer; null when it leaves it.
 */
export function landsHere(address: string, sources: ReachSources = {}): string | null {
  const [host] = onThisComputer([urlSpelling(address) ?? address], sources);
  return host ?? null;
}

/** The hosts `candidates` land on that are this computer's. */
function onThisComputer(candidates: readonly string[], sources: ReachSources): string[] {
  let own: ReadonlySet<string> | null = null;
  const mine = (host: string) =>
    isLoopbackHost(host) || (own ??= (sources.ownAddresses ?? ownAddresses)()).has(host);
  return [...new Set(candidates.map(landing))].filter(mine);
}

/**
 * The hosts of this computer (URL spelling, or a `localhost` name, which local-owner.ts reads as
 * both loopbacks) a request to `url` connects to: `pinned`, when the transport connects to that
 * address; else the literal or `localhost` name itself; else, over plain http, each address the
 * name resolves to now. Empty when it leaves this computer, or the name does not resolve (nothing
 * is sent). A name over https is not resolved: TLS checks the server's certificate against the
 * name, which a squatter on this computer has no key for, so it can read nothing of the request
 * (and a lookup before every request to a remote service would cost each of them).
 */
export async function hostsReached(
  url: URL,
  pinned: ResolvedAddress | undefined,
  sources: ReachSources = {},
): Promise<readonly string[]> {
  if (pinned) return onThisComputer([urlSpelling(pinned.address) ?? pinned.address], sources);
  const { hostname } = url;
  if (isLocalhostName(hostname)) return [hostname];
  if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return onThisComputer([hostname], sources);
  if (url.protocol !== 'http:') return [];
  const answers = await resolvedInTime(sources.resolve ?? systemReachResolver, hostname);
  const spelt = answers.map(({ address }) => urlSpelling(address) ?? address);
  return onThisComputer(spelt, sources);
}

/** Both loopbacks, in the order a `localhost` name is tried (as node-fetch.ts and Chromium do). */
const LOOPBACKS: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * The addresses to pin a plain-http request to `url` to, in the order to try them, when it
 * reaches this computer: both loopbacks for a `localhost` name, the literal itself, or every
 * address the name resolves to now when any of them is this computer's (the connection is made
 * to what was judged: a second answer, or another resolver's, cannot move it). Empty when it
 * leaves this computer.
 * @throws ServiceError when the resolver has not answered in time (nothing sent).
 */
export async function pinsHere(
  url: URL,
  sources: ReachSources = {},
): Promise<readonly ResolvedAddress[]> {
  const { hostname } = url;
  if (isLocalhostName(hostname)) return LOOPBACKS;
  const literal = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(literal);
  const answers =
    family !== 0
      ? [{ address: literal, family: family === 6 ? 6 : 4 } as const]
      : await resolvedInTime(sources.resolve ?? systemReachResolver, hostname);
  return answers.some(({ address }) => landsHere(address, sources) !== null) ? answers : [];
}
