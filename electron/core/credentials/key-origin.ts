/**
 * The key is bound to the origin (scheme, host and port) it was entered for, and is sent nowhere
 * else. These helpers name that origin, and the endpoints Pictor never contacts for a record it
 * did not make itself.
 */
import { DEMO_ENDPOINT } from './demo-endpoint';
import { checkBaseUrl, isLoopbackHost, UrlPolicyError } from '../service/url-policy';

/** The origin of a service base URL (`https://api.example.com`), or null when it is not one. */
export function serviceOrigin(baseUrl: string): string | null {
  if (baseUrl.trim() === '') return null;
  try {
    return new URL(checkBaseUrl(baseUrl)).origin;
  } catch {
    return null;
  }
}

/**
 * The origin of a service base URL, or the URL policy's refusal of it (its sentence says why):
 * for telling the user why a task's stored address is not used.
 */
export function originOrRefusal(baseUrl: string): string | UrlPolicyError {
  try {
    return new URL(checkBaseUrl(baseUrl)).origin;
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
  if (endpoint === DEMO_ENDPOINT) return true;
  try {
    return isLoopbackHost(new URL(endpoint).hostname);
  } catch {
    // Not a URL at all: nothing to contact, and nothing Pictor would send a key to either.
    return true;
  }
}

/** How an origin is named to the user: the host, with the port when it is not the default. */
export function originLabel(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}
