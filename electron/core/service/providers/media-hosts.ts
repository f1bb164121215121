/**
 * Where a provider's images may come from: at the profile's own address (its documented one, or
 * one of its regional hosts), only its media hosts (fal.media, replicate.delivery, …) or its
 * API's origin; an image URL elsewhere is refused
 * before any connection. At an address the user named instead (a proxy, a regional gateway) the
 * images come from wherever that service keeps them, as on today's contract; the key never goes
 * with an image either way (url-policy.ts still refuses private and local hosts).
 */
import type { ProviderId } from '../../../../shared/domain/providers';
import { sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { isProfilesOwnAddress } from './api-origins';
import { profileOf } from './profiles';

function hostMatches(host: string, pattern: string): boolean {
  return pattern.startsWith('.')
    ? host === pattern.slice(1) || host.endsWith(pattern)
    : host === pattern;
}

/** Why the image at `url` is not taken from this provider, or null when it may be. */
export function imageHostRefusal(
  provider: ProviderId | undefined,
  url: string,
  baseUrl: string,
): Sentence | null {
  const profile = profileOf(provider);
  if (profile.mediaHosts.length === 0 || !isProfilesOwnAddress(profile, baseUrl)) return null;
  let image: URL;
  try {
    image = new URL(url);
  } catch {
    return null; // url-policy.ts says why such an address is refused.
  }
  const host = image.hostname.toLowerCase().replace(/\.$/, '');
  if (image.origin === new URL(baseUrl).origin) return null;
  if (profile.mediaHosts.some((pattern) => hostMatches(host, pattern))) return null;
  return sentence('error.service.imageHostNotService', { host, service: profile.facts.label });
}
