/**
 * Setting values a newer Pictor may write: a name from a list that a later version extends (a
 * theme, a language, an update mode, a service). This version reads such a value as the
 * setting's default for the run, and never writes it over: a downgrade must not lose what the
 * newer version keeps there (the newer app, opened again, finds its theme, its service's address,
 * its consent). A value of another kind (a number where a name goes, a name of 65 characters,
 * text with spaces) is no newer version's: it is damage, reset as before (settings-fields.ts).
 */
import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import type { Settings } from '../../../shared/domain/settings';

type SettingName = keyof Settings;

/** What a later version's name in such a list looks like (a provider id, a locale tag, a word). */
const NEWER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The settings whose whole value is one name of a list a later version may extend. */
const NAMED_SETTINGS: ReadonlySet<SettingName> = new Set<SettingName>([
  'provider',
  'theme',
  'language',
  'updateMode',
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isKnownProvider = (name: string): name is ProviderId =>
  (PROVIDER_IDS as readonly string[]).includes(name);

/** Whether `value` can be a later version's name in a list: read as newer, not as damage. */
function isNewerName(value: unknown): value is string {
  return typeof value === 'string' && NEWER_NAME.test(value);
}

/**
 * Whether `value`, refused for setting `name`, is one a newer Pictor writes there: a name where
 * this version knows a list of names. (Lists of services are read entry by entry: see
 * {@link knownConsents}; addresses of services this version does not know are never read.)
 */
export function isNewerValue(name: SettingName, value: unknown): boolean {
  return NAMED_SETTINGS.has(name) && isNewerName(value);
}

/**
 * A stored list of consents without the services a newer Pictor added, when those are all it
 * holds besides this version's own (then the rest is read as usual); the list as stored else.
 */
export function knownConsents(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const entries: unknown[] = value;
  const newer = entries.filter((entry) => isNewerName(entry) && !isKnownProvider(entry));
  return newer.length === 0 ? value : entries.filter((entry) => !newer.includes(entry));
}

/**
 * `value`, about to be written for setting `name`, with what a newer Pictor keeps in the file's
 * value (`stored`) that this version did not read: the addresses of services it does not know,
 * their consents. A name-valued setting has no parts: written, the user's choice replaces it.
 */
export function withNewerParts(name: SettingName, stored: unknown, value: unknown): unknown {
  if (name === 'serviceBaseUrls' && isRecord(stored) && isRecord(value)) {
    const newer = Object.entries(stored).filter(
      ([provider, address]) => !isKnownProvider(provider) && typeof address === 'string',
    );
    return newer.length === 0 ? value : { ...Object.fromEntries(newer), ...value };
  }
  if (name === 'publicUploadConsent' && Array.isArray(stored) && Array.isArray(value)) {
    const given: unknown[] = value;
    const newer = stored.filter(
      (entry: unknown) => isNewerName(entry) && !isKnownProvider(entry) && !given.includes(entry),
    );
    return newer.length === 0 ? value : [...given, ...newer];
  }
  return value;
}
