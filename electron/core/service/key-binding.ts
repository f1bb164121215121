/**
 * The key is bound to the base URL it was entered for: an origin and a path prefix, normalised
 * by checkBaseUrl (one origin may serve several tenants under different paths), and is sent only
 * under it. These helpers name that base URL, and the endpoints Pictor never contacts for a
 * record it did not make itself.
 */
import type { ProviderFacts } from '../../../shared/domain/providers';
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

/**
 * How a base URL is named to the user: the host (with the port when it is not the default) and
 * the path, which tells two tenants of one gateway apart (`gateway.example/team-a`).
 */
export function serviceLabel(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return baseUrl;
  }
}

/**
 * How a service at `baseUrl` is named to the user, in every language: its provider's name, or,
 * for a service without an address of its own (the seed's interface lives at whatever base URL
 * its user has), that address.
 */
export function serviceNameAt(facts: ProviderFacts, baseUrl: string): string {
  return facts.defaultBaseUrl === null ? serviceLabel(baseUrl) : facts.label;
}
