/**
 * Where the key may go for a provider: under the base URL the user entered it for, and, when
 * that address is the profile's own (its documented address, or one of its regional hosts
 * itself), the profile's regional hosts (regional-hosts.ts). Every address a service sends back
 * for a task (a `polling_url`, `status_url`, `urls.get`) is checked here before a request that
 * carries the key goes to it.
 */
import { isUnderBase, hasHiddenDotSegment, normalisePercentEncoding } from '../base-url-path';
import { checkBaseUrl } from '../url-policy';
import type { ProviderProfile } from './provider-profile';
import { isRegionalBaseUrl, isRegionalHost } from './regional-hosts';

/**
 * True when `baseUrl` (checked) is the profile's own service: its documented address, or (for a
 * profile with regional hosts) one of those hosts with no path.
 */
export function isProfilesOwnAddress(profile: ProviderProfile, baseUrl: string): boolean {
  const own = profile.facts.defaultBaseUrl;
  if (own === null) return false;
  return checkBaseUrl(own) === baseUrl || isRegionalBaseUrl(baseUrl, profile.regionalHosts);
}

/** The regional host patterns where `profile`'s key may go at `baseUrl` besides the base URL. */
export function regionalOriginsAt(profile: ProviderProfile, baseUrl: string): readonly string[] {
  if (profile.regionalHosts.length === 0) return [];
  return isProfilesOwnAddress(profile, baseUrl) ? profile.regionalHosts : [];
}

/**
 * True when a request carrying the key may go to `target`: under `baseUrl` (same origin, under
 * its path, no step back out), or anywhere on a host one of `regional`'s patterns stands for
 * (https, default port) without a user name, password or hidden dot segment.
 */
export function keyMayGoTo(
  target: string | URL,
  baseUrl: string,
  regional: readonly string[],
): boolean {
  if (isUnderBase(target, baseUrl)) return true;
  const url = URL.parse(target);
  if (url === null) return false;
  if (!isRegionalHost(url, regional)) return false;
  return !hasHiddenDotSegment(normalisePercentEncoding(url.pathname));
}

/** The host of an address, to name in a sentence; the text itself when it is not a URL. */
export function hostOf(target: string): string {
  return URL.parse(target)?.host ?? target.slice(0, 80);
}
