/**
 * Which URLs Pictor will talk to. The key goes only to a base URL that is `https:` (or `http:`
 * on loopback); image URLs never get the key, and may not point at file:, data:, private or
 * link-local addresses, or carry credentials.
 */
import { UserFacingError } from '../errors/user-facing-error';
import { classifyAddress } from './special-addresses';

/** A URL Pictor will not use, in a sentence for the user. */
export class UrlPolicyError extends UserFacingError {
  override readonly name = 'UrlPolicyError';
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.', '[::1]', '::1']);

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export function isLoopbackHost(hostname: string): boolean {
  // A fully qualified name ends in a dot: `app.localhost.` is `app.localhost` to a resolver.
  const host = bareHost(hostname.toLowerCase()).replace(/(?<=[^.])\.$/, '');
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
  return classifyAddress(host) === 'loopback';
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
 * Checks a service base URL and returns it normalised: no trailing slash, and no trailing `/v1`
 * (the paths Pictor asks for, `/v1/images/generations` and `/v1/tasks/<id>`, carry it already,
 * and providers' documentation often quotes the base URL with it). Settings save it in this
 * form and the connection test and every request use it, so what is tested is what is used.
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
  return `${url.origin}${url.pathname.replace(/(\/+v1)?\/*$/, '')}`;
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
      throw new UrlPolicyError(
        `The image address points to a private or local network (${address}), so Pictor did not download it.`,
      );
    }
    if (kind === 'loopback' && !serviceIsLocal) {
      throw new UrlPolicyError(
        `The image address points at this computer (${address}), which Pictor refuses for a remote service.`,
      );
    }
  }
  const [first] = addresses;
  if (!first)
    throw new UrlPolicyError('The image host has no address, so Pictor could not download it.');
  return first;
}

/** `true` when `a` and `b` share scheme, host and port: the only place the key may follow a redirect. */
export function sameOrigin(a: string | URL, b: string | URL): boolean {
  return new URL(a).origin === new URL(b).origin;
}
