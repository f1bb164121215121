/**
 * Where each service lives: today's contract at the address typed in Settings (none: the built-in
 * demo), every other service at the address the user gave it or else its provider's own. A key is
 * bound to its service's address, so no two services may share one: an endpoint then names one
 * service, and so one key.
 */
import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import { typedAddress, type AddressSettings } from '../../../shared/domain/submit-target';
import { serviceBaseUrl } from '../service';

/** The normalised base URL of `provider`'s service, or null when it has none (the demo). */
export function serviceAddress(settings: AddressSettings, provider: ProviderId): string | null {
  return serviceBaseUrl(typedAddress(settings, provider));
}

/** The services whose address is `baseUrl` (normalised): one, or none; two only by a mistake. */
export function servicesAt(settings: AddressSettings, baseUrl: string): ProviderId[] {
  return PROVIDER_IDS.filter((provider) => serviceAddress(settings, provider) === baseUrl);
}

/** Two services at one address, with that address; null when every address is its own. */
export function sharedAddress(
  settings: AddressSettings,
): { readonly first: ProviderId; readonly second: ProviderId; readonly baseUrl: string } | null {
  const seen = new Map<string, ProviderId>();
  for (const provider of PROVIDER_IDS) {
    const baseUrl = serviceAddress(settings, provider);
    if (baseUrl === null) continue;
    const first = seen.get(baseUrl);
    if (first !== undefined) return { first, second: provider, baseUrl };
    seen.set(baseUrl, provider);
  }
  return null;
}
