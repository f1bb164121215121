/**
 * Where the key may go for a provider: under the base URL the user entered it for, and, when
 * that address is the profile's own, the profile's regional hosts. Every address a service
 * sends back for a task (a `polling_url`, `status_url`, `urls.get`) is checked here before a
 * request that carries the key goes to it.
 */
import { isUnderBase, hasHiddenDotSegment, normalisePercentEncoding } from '../base-url-path';
import { checkBaseUrl } from '../url-policy';
import type { ProviderProfile } from './provider-profile';

/** The origins besides the base URL's where `profile`'s key may go at `baseUrl`. */
export function regionalOriginsAt(profile: ProviderProfile, baseUrl: string): readonly string[] {
  const own = profile.facts.defaultBaseUrl;
  if (own === null || profile.regionalOrigins.length === 0) return [];
  return checkBaseUrl(own) === baseUrl ? profile.regionalOrigins : [];
}

/**
 * True when a request carrying the key may go to `target`: under `baseUrl` (same origin, under
 * its path, no step back out), or anywhere on one of `regional`'s origins without a user name,
 * password or hidden dot segment.
 */
export function keyMayGoTo(
  target: string | URL,
  baseUrl: string,
  regional: readonly string[],
): boolean {
  if (isUnderBase(target, baseUrl)) return true;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.username || url.password || !regional.includes(url.origin)) return false;
  return !hasHiddenDotSegment(normalisePercentEncoding(url.pathname));
}

/** The host of an address, to name in a sentence; the text itself when it is not a URL. */
export function hostOf(target: string): string {
  try {
    return new URL(target).host;
  } catch {
    return target.slice(0, 80);
  }
}
