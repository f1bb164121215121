/**
 * What the user's own service is called, in one home for the window and main: the name the user
 * typed, else its address's host (the port when it is not the scheme's default, an international
 * host in its own letters when they cannot pass for another name), else nothing, and only then the
 * catalogue's generic name, in the shown language, from the caller. A cleared name falls back to
 * the host again.
 */
import { elidedHost, readableHost } from '../text/shown-host';
import { cleanName } from '../text/shown-name';
import { DEFAULT_PROVIDER, PROVIDERS, type ProviderId } from './providers';
import type { Settings } from './settings';

/** The longest name a user may give their own service. */
export const SERVICE_NAME_MAX_CHARS = 60;

/**
 * A service name as kept: one line that cannot steer or reorder the text around it (cleanName's
 * rule for every shown name), runs of white space made one space; '' when nothing is left.
 */
export function cleanServiceName(text: string): string {
  return cleanName(text.replace(/\s+/gu, ' '), SERVICE_NAME_MAX_CHARS) ?? '';
}

/** Far past any host and port; a longer one is not shown at all. */
const MAX_HOST_CHARS = 300;

/**
 * The host of `address` as the window names it (`images.example.com`, `gpu.local:8443`,
 * `[::1]:8080`, `bücher.example`; a host that could pass for another in Punycode, a long one by
 * its right end: shared/text/shown-host.ts); '' when it is not an http(s) URL.
 */
export function addressHost(address: string): string {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
  // An IPv6 host keeps its brackets: they tell its colons from the port's.
  const host = url.hostname.startsWith('[') ? url.hostname : elidedHost(readableHost(url.hostname));
  return cleanName(url.port === '' ? host : `${host}:${url.port}`, MAX_HOST_CHARS) ?? '';
}

/**
 * What the user's own service is called: the typed name, else its address's host; '' when it has
 * neither (the caller says the catalogue's name then).
 */
export function ownServiceName(
  settings: Pick<Settings, 'serviceName' | 'serviceBaseUrls'>,
): string {
  const typed = cleanServiceName(settings.serviceName);
  return typed !== '' ? typed : addressHost(settings.serviceBaseUrls[DEFAULT_PROVIDER] ?? '');
}

/**
 * A service as main names it where it knows the address but not the Settings (a task's target,
 * a compare's cell): a service with no address of its own (the user's own) by its address's
 * host, the others by their provider's name. The generic name only when the address has no host.
 */
export function serviceAt(provider: ProviderId, address: string): string {
  const { label, defaultBaseUrl } = PROVIDERS[provider];
  if (defaultBaseUrl !== null) return label;
  const host = addressHost(address);
  return host !== '' ? host : label;
}
