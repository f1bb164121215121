/**
 * The key is bound to the base URL it was entered for: an origin and a path prefix, normalised
 * by checkBaseUrl (one origin may serve several tenants under different paths), and is sent only
 * under it. These helpers name that base URL, and the endpoints Pictor never contacts for a
 * record it did not make itself.
 */
import type { ProviderFacts } from '../../../shared/domain/providers';
import { elidedHost } from '../../../shared/text/shown-host';
import { isDemoEndpoint } from './demo-endpoint';
import { checkBaseUrl, isLoopbackHost, UrlPolicyError } from './url-policy';

/** The normalised base URL (`https://gateway.example/team-a`), or null when it is not one. */
export function serviceBaseUrl(raw: string): string | null {
  if (raw.trim() === '') return null;
  try {
    return checkBaseUrl(raw);
  } catch {
    return null;
  }
}

/**
 * The normalised base URL, or the URL policy's refusal of it (its sentence says why): for
 * telling the user why a task's stored address is not used.
 */
export function baseUrlOrRefusal(raw: string): string | UrlPolicyError {
  try {
    return checkBaseUrl(raw);
  } catch (error) {
    if (error instanceof UrlPolicyError) return error;
    throw error;
  }
}

/**
 * True for endpoints on this computer: the built-in demo service and loopback hosts. A record
 * imported from a gallery folder never reaches these (a crafted sidecar could aim the engine at
 * a local server; the user's own tasks there were finished before their sidecar was written).
 */
export function isLocalEndpoint(endpoint: string): boolean {
  if (isDemoEndpoint(endpoint)) return true;
  try {
    return isLoopbackHost(new URL(endpoint).hostname);
  } catch {
    // Not a URL at all: nothing to contact, and nothing Pictor would send a key to either.
    return true;
  }
}

/** The most of a path a sentence shows: a tenant's name, not a page of text in a button. */
const SHOWN_PATH_CHARS = 48;

function shownPath(pathname: string): string {
  if (pathname === '/') return '';
  if (pathname.length <= SHOWN_PATH_CHARS) return pathname;
  // Never half a percent escape.
  return `${pathname.slice(0, SHOWN_PATH_CHARS - 1).replace(/%[0-9A-F]?$/i, '')}…`;
}

/**
 * How a base URL is named to the user: the host (with the port when it is not the default) and
 * the path, which tells two tenants of one gateway apart (`gateway.example/team-a`). Both as the
 * URL parser writes them (an international host in Punycode, anything else in a path
 * percent-encoded: nothing that reads as another letter or reorders the line) and bounded, a
 * long host by its right end (shared/text/shown-host.ts).
 */
export function serviceLabel(baseUrl: string): string {
  const url = URL.parse(baseUrl);
  if (url === null) return baseUrl;
  const port = url.port === '' ? '' : `:${url.port}`;
  return `${elidedHost(url.hostname)}${port}${shownPath(url.pathname)}`;
}

/** A base URL in full as a sentence shows it: its scheme and {@link serviceLabel}. */
export function serviceAddress(baseUrl: string): string {
  const url = URL.parse(baseUrl);
  return url === null ? baseUrl : `${url.protocol}//${serviceLabel(baseUrl)}`;
}

/**
 * How a service at `baseUrl` is named to the user, in every language: its provider's name, or,
 * for a service without an address of its own (the seed's interface lives at whatever base URL
 * its user has), that address.
 */
export function serviceNameAt(facts: ProviderFacts, baseUrl: string): string {
  return facts.defaultBaseUrl === null ? serviceLabel(baseUrl) : facts.label;
}
