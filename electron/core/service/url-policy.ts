/**
 * Which URLs Pictor will talk to. The key goes only to a base URL that is `https:` (or `http:`
 * on loopback); image URLs never get the key, and may not point at file:, data:, private or
 * link-local addresses, or carry credentials.
 */
import { isIP } from 'node:net';

export class UrlPolicyError extends Error {
  override readonly name = 'UrlPolicyError';
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.', '[::1]', '::1']);

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** The eight 16-bit groups of a URL-normalised IPv6 literal (hex groups only), or null. */
function ipv6Groups(host: string): number[] | null {
  const halves = host.split('::');
  if (halves.length > 2) return null;
  const part = (text: string | undefined) => (text ? text.split(':') : []);
  const left = part(halves[0]);
  const right = part(halves[1]);
  const missing = halves.length === 1 ? 0 : 8 - left.length - right.length;
  if (left.length + missing + right.length !== 8 || (halves.length === 2 && missing < 1)) {
    return null;
  }
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

const dottedQuad = (high = 0, low = 0): string =>
  [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address. WHATWG URL parsing turns
 * `[::ffff:10.0.0.1]` into `[::ffff:a00:1]`, so both spellings are handled.
 */
function mappedIpv4(host: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted) return dotted[1] ?? null;
  const g = ipv6Groups(host);
  if (!g || !g.slice(0, 5).every((group) => group === 0) || g[5] !== 0xffff) return null;
  return dottedQuad(g[6], g[7]);
}

/**
 * The IPv4 address an IPv6 literal carries, which a network may route it to: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64's
 * well-known prefix (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::…).
 */
function embeddedIpv4(host: string): string | null {
  const mapped = mappedIpv4(host);
  if (mapped !== null) return mapped;
  const g = ipv6Groups(host);
  if (!g) return null;
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zero(0, 6)) return dottedQuad(g[6], g[7]);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return dottedQuad(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return dottedQuad(g[6], g[7]);
  if (g[0] === 0x2002) return dottedQuad(g[1], g[2]);
  return null;
}

export function isLoopbackHost(hostname: string): boolean {
  // A fully qualified name ends in a dot: `app.localhost.` is `app.localhost` to a resolver.
  const host = bareHost(hostname.toLowerCase()).replace(/(?<=[^.])\.$/, '');
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) {
    const mapped = mappedIpv4(host);
    return host === '::1' || (mapped !== null && mapped.startsWith('127.'));
  }
  return false;
}

/**
 * Private, link-local, unspecified, CGNAT and multicast literals, and IPv6 literals that carry
 * one of those (or loopback) inside: never an image host.
 */
export function isNonPublicAddress(hostname: string): boolean {
  const host = bareHost(hostname.toLowerCase());
  if (isIP(host) === 4) {
    const [a = 0, b = 0] = host.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (isIP(host) === 6) {
    // `::` and `::1` are IPv4-compatible forms of 0.0.0.0 and 0.0.0.1: non-public either way.
    const embedded = embeddedIpv4(host);
    if (embedded !== null) return isLoopbackHost(embedded) || isNonPublicAddress(embedded);
    return (
      // NAT64's local-use prefix (RFC 8215): only ever routed inside its own network.
      /^64:ff9b:1:/.test(host) ||
      /^f[cd][0-9a-f]{2}:/.test(host) ||
      /^fe[89ab][0-9a-f]:/.test(host) ||
      host.startsWith('ff')
    );
  }
  return false;
}

function parse(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UrlPolicyError(`The ${what} is not a valid URL.`);
  }
  if (url.username || url.password) {
    throw new UrlPolicyError(`The ${what} must not contain a user name or password.`);
  }
  return url;
}

/**
 * Checks a service base URL and returns it normalised (no trailing slash, no query or hash).
 * @throws UrlPolicyError before any request is made.
 */
export function checkBaseUrl(raw: string): string {
  const url = parse(raw, 'service URL');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UrlPolicyError(
      'The service URL must start with https:// (plain http:// is allowed only for this computer, e.g. http://127.0.0.1).',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UrlPolicyError('The service URL must start with https://.');
  }
  if (url.search || url.hash) {
    throw new UrlPolicyError('The service URL must not have a query (?…) or fragment (#…).');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Longest image URL accepted: signed CDN URLs run to a few kilobytes; a megabyte-long one is
 * junk that would otherwise be stored in the history and every sidecar.
 */
export const MAX_IMAGE_URL_LENGTH = 16_384;

/**
 * Checks an image URL the service returned (or a redirect hop of one).
 * Loopback image hosts are allowed only when the service itself is on loopback (the demo).
 * @throws UrlPolicyError
 */
export function checkImageUrl(raw: string, baseUrl: string): URL {
  if (raw.length > MAX_IMAGE_URL_LENGTH) {
    throw new UrlPolicyError(
      `The image address is longer than ${MAX_IMAGE_URL_LENGTH} characters, which Pictor refuses.`,
    );
  }
  const url = parse(raw, 'image address');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UrlPolicyError(
      `The image address uses ${url.protocol.replace(':', '')}:, which Pictor does not download from.`,
    );
  }
  const serviceIsLocal = isLoopbackHost(new URL(baseUrl).hostname);
  if (isLoopbackHost(url.hostname)) {
    if (!serviceIsLocal)
      throw new UrlPolicyError(
        'The image address points at this computer, which Pictor refuses for a remote service.',
      );
    return url;
  }
  if (isNonPublicAddress(url.hostname)) {
    throw new UrlPolicyError(
      'The image address points at a private or link-local network address, which Pictor refuses.',
    );
  }
  return url;
}

/** `true` when `a` and `b` share scheme, host and port: the only place the key may follow a redirect. */
export function sameOrigin(a: string | URL, b: string | URL): boolean {
  return new URL(a).origin === new URL(b).origin;
}
