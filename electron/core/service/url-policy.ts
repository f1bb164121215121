/**
 * Which URLs Pictor will talk to. The key goes only to a base URL that is `https:` (or `http:`
 * to this computer by construction: see isLoopbackByConstruction); image URLs never get the key, and may not point at file:, data:, private or
 * link-local addresses, or carry credentials.
 */
import { isIPv4 } from 'node:net';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError, type UserFacingErrorOptions } from '../errors';
import { hasHiddenDotSegment, normalisePercentEncoding } from './base-url-path';
import { classifyAddress } from './special-addresses';

/**
 * A URL Pictor will not use, in a sentence for the user: always a catalogue sentence
 * (`error.sentence`, keys `error.service.*`), its English text the `message`.
 */
export class UrlPolicyError extends UserFacingError {
  override readonly name = 'UrlPolicyError';
  declare readonly sentence: Sentence;

  // Not useless: it narrows the message to a catalogue sentence, so `sentence` is always set.
  // eslint-disable-next-line @typescript-eslint/no-useless-constructor
  constructor(message: Sentence, options?: UserFacingErrorOptions) {
    super(message, options);
  }
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * `localhost` and every name under it (RFC 6761 §6.3), with or without the final dot of a fully
 * qualified name: names that mean this computer, whatever a resolver would say about them.
 */
export function isLocalhostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/(?<=[^.])\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * True for hosts on this computer, or names that claim to be (`*.localhost`): for refusals (an
 * image host, an imported record's service, a link), where treating a name as local is the
 * careful side. Not for where the key may go over plain http: see isLoopbackByConstruction.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname.toLowerCase());
  return isLocalhostName(host) || classifyAddress(host) === 'loopback';
}

/**
 * True when a connection to `hostname` reaches this computer without a resolver being asked, so
 * plain http (the key in clear) never leaves it: a 127.0.0.0/8 or `[::1]` literal (the URL
 * parser has already turned decimal, octal and hex IPv4 spellings into dotted ones), or the name
 * `localhost` itself, which both transports answer with loopback on their own (Chromium's
 * resolver in the app, node-fetch.ts in the CLI) and neither sends through a proxy. Not
 * `*.localhost`, `localhost.`, `0.0.0.0` or an IPv4-mapped IPv6 literal: a system resolver, DNS
 * search domain or proxy bypass list may treat those otherwise.
 */
export function isLoopbackByConstruction(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return isIPv4(hostname) && classifyAddress(hostname) === 'loopback';
}

/**
 * IP literals in any special-purpose range (private, link-local, unspecified, CGNAT,
 * documentation, benchmarking, multicast, reserved… see special-addresses.ts), and IPv6
 * literals that carry one of those (or loopback) inside: never an image host. Names are judged
 * by what they resolve to (checkResolvedAddresses).
 */
export function isNonPublicAddress(hostname: string): boolean {
  return classifyAddress(bareHost(hostname.toLowerCase())) === 'special';
}

/** The sentences of an address that does not parse, or carries a user name or password. */
const PARSE_REFUSALS = {
  service: {
    invalid: 'error.service.serviceUrlInvalid',
    credentials: 'error.service.serviceUrlCredentials',
  },
  image: {
    invalid: 'error.service.imageUrlInvalid',
    credentials: 'error.service.imageUrlCredentials',
  },
} as const satisfies Record<string, Record<string, MainMessageKey>>;

function parse(raw: string, what: keyof typeof PARSE_REFUSALS): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UrlPolicyError(sentence(PARSE_REFUSALS[what].invalid));
  }
  if (url.username || url.password) {
    throw new UrlPolicyError(sentence(PARSE_REFUSALS[what].credentials));
  }
  return url;
}

/**
 * Checks a service base URL and returns it normalised, the one spelling the key is bound to (see
 * base-url-path.ts): scheme and host in lower case and the default port dropped (the URL parser
 * does that), `.`/`..` segments resolved, percent-encoding in one form, no trailing slash, and
 * no trailing `/v1` (the paths Pictor asks for, `/v1/images/generations` and `/v1/tasks/<id>`,
 * carry it already, and providers' documentation often quotes the base URL with it). Settings
 * save it in this form and the connection test and every request use it, so what is tested is
 * what is used.
 * @throws UrlPolicyError before any request is made.
 */
export function checkBaseUrl(raw: string): string {
  const url = parse(raw, 'service');
  if (url.protocol === 'http:' && !isLoopbackByConstruction(url.hostname)) {
    throw new UrlPolicyError(sentence('error.service.serviceUrlPlainHttp'));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UrlPolicyError(sentence('error.service.serviceUrlScheme'));
  }
  if (url.search || url.hash) {
    throw new UrlPolicyError(sentence('error.service.serviceUrlQuery'));
  }
  // A `..` a decoding gateway would find (`/team-a/..%2Fteam-b`) would make the path a lie.
  if (hasHiddenDotSegment(url.pathname)) {
    throw new UrlPolicyError(sentence('error.service.serviceUrlDotSegment'));
  }
  const path = normalisePercentEncoding(url.pathname).replace(/(\/+v1)?\/*$/, '');
  return `${url.origin}${path}`;
}

/**
 * Longest image URL accepted: signed CDN URLs run to a few kilobytes; a megabyte-long one is
 * junk that would otherwise be stored in the history and every sidecar.
 */
const MAX_IMAGE_URL_LENGTH = 16_384;

/**
 * Checks an image URL the service returned (or a redirect hop of one).
 * Loopback image hosts are allowed only when the service itself is on loopback (the demo).
 * @throws UrlPolicyError
 */
export function checkImageUrl(raw: string, baseUrl: string): URL {
  if (raw.length > MAX_IMAGE_URL_LENGTH) {
    throw new UrlPolicyError(
      sentence('error.service.imageUrlTooLong', { max: String(MAX_IMAGE_URL_LENGTH) }),
    );
  }
  const url = parse(raw, 'image');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UrlPolicyError(
      sentence('error.service.imageUrlScheme', { scheme: url.protocol.replace(':', '') }),
    );
  }
  const serviceIsLocal = isLoopbackHost(new URL(baseUrl).hostname);
  if (isLoopbackHost(url.hostname)) {
    if (!serviceIsLocal) throw new UrlPolicyError(sentence('error.service.imageUrlThisComputer'));
    return url;
  }
  if (isNonPublicAddress(url.hostname)) {
    throw new UrlPolicyError(sentence('error.service.imageUrlPrivate'));
  }
  return url;
}

/** Decides what an address is; tests may stand in for it (see ImageRequest.classify). */
export type AddressClassifier = (address: string) => ReturnType<typeof classifyAddress>;

/**
 * Checks every address an image host's name resolved to, and returns the one to connect to.
 * One bad address refuses the host: which one a connection would use is not ours to choose
 * (the resolver's order, happy eyeballs), and a host that answers with a private address is
 * hostile or misconfigured either way.
 * @throws UrlPolicyError
 */
export function checkResolvedAddresses<A extends { readonly address: string }>(
  addresses: readonly A[],
  baseUrl: string,
  classify: AddressClassifier = classifyAddress,
): A {
  const serviceIsLocal = isLoopbackHost(new URL(baseUrl).hostname);
  for (const { address } of addresses) {
    const kind = classify(address);
    if (kind === 'special' || kind === null) {
      throw new UrlPolicyError(sentence('error.service.imageHostPrivate', { address }));
    }
    if (kind === 'loopback' && !serviceIsLocal) {
      throw new UrlPolicyError(sentence('error.service.imageHostThisComputer', { address }));
    }
  }
  const [first] = addresses;
  if (!first) throw new UrlPolicyError(sentence('error.service.imageHostNoAddress'));
  return first;
}
