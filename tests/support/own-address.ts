/**
 * The user's own service's address in settings, as tests set and read it: one entry of every
 * service's addresses (`serviceBaseUrls`), like any other service's.
 */
import { DEFAULT_PROVIDER } from '../../shared/domain/providers';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';

/** The settings change that gives the user's own service `address` (and no other its own). */
export function ownAddress(address: string): Required<Pick<SettingsPatch, 'serviceBaseUrls'>> {
  return { serviceBaseUrls: { [DEFAULT_PROVIDER]: address } };
}

/** The user's own service's address as saved in `settings` ('' for none). */
export function savedAddress(settings: Pick<Settings, 'serviceBaseUrls'>): string {
  return settings.serviceBaseUrls[DEFAULT_PROVIDER] ?? '';
}
