/**
 * The user's own service's address in settings, as tests set and read it: one entry of every
 * service's addresses (`serviceBaseUrls`), like any other service's.
 */
import type { KeySource, ServiceKeySource } from '../../electron/app/app-credentials';
import { KeyVault } from '../../electron/core/key-vault/key-vault';
import { DEFAULT_PROVIDER } from '../../shared/domain/providers';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import { InMemoryCipher } from '../fakes/in-memory-cipher';
import { InMemoryKv } from '../fakes/in-memory-kv';

/** The settings change that gives the user's own service `address` (and no other its own). */
export function ownAddress(address: string): Required<Pick<SettingsPatch, 'serviceBaseUrls'>> {
  return { serviceBaseUrls: { [DEFAULT_PROVIDER]: address } };
}

/** The user's own service's address as saved in `settings` ('' for none). */
export function savedAddress(settings: Pick<Settings, 'serviceBaseUrls'>): string {
  return settings.serviceBaseUrls[DEFAULT_PROVIDER] ?? '';
}

/** Every service's keys where only the user's own service has `vault`; the others have none. */
export function ownKeyOnly(vault: KeySource): ServiceKeySource {
  const none = new KeyVault({
    store: new InMemoryKv('/none', 'key-vault'),
    cipher: new InMemoryCipher({ backend: 'gnome_libsecret' }),
    now: () => 0,
  });
  return { vault: (provider) => (provider === DEFAULT_PROVIDER ? vault : none) };
}
