/**
 * Keys stored by earlier versions (bound to an origin, to none, or to nothing at all) are bound
 * to the base URL they were being sent to, once, and never to anything wider.
 */
import { describe, expect, it } from 'vitest';
import { AppCredentials } from '../../../../electron/app/app-credentials';
import {
  bindLegacyKey,
  legacyBaseUrl,
} from '../../../../electron/core/credentials/legacy-key-binding';
import { KEY_RECORD_NAME } from '../../../../electron/core/key-vault/key-record';
import { KeyVault } from '../../../../electron/core/key-vault/key-vault';
import { SettingsService } from '../../../../electron/core/settings/settings-service';
import { silentLogger } from '../../../../electron/ports/logger';
import { InMemoryCipher } from '../../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../../fakes/in-memory-kv';
import { ownAddress, ownKeyOnly, savedAddress } from '../../../support/own-address';

const KEY = 'sk-legacy-3f1e0c9a7b52';
const TEAM_A = 'https://gateway.example/team-a';

describe('legacyBaseUrl', () => {
  it.each([
    // [what the record says, the address in Settings, the base URL the key is bound to]
    ['https://gateway.example', TEAM_A, TEAM_A],
    ['https://gateway.example', `${TEAM_A}/v1/`, TEAM_A],
    ['https://gateway.example', 'https://gateway.example', 'https://gateway.example'],
    ['https://gateway.example', 'https://other.example/team-a', 'https://gateway.example'],
    ['https://gateway.example', '', 'https://gateway.example'],
    ['https://gateway.example:8443', TEAM_A, 'https://gateway.example:8443'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/api', 'http://127.0.0.1:8080/api'],
    // Origins the URL policy no longer sends the key to in clear stay with no one.
    ['http://a.localhost:8080', 'http://a.localhost:8080/api', null],
    ['not an origin', TEAM_A, null],
    [null, TEAM_A, null],
    [undefined, TEAM_A, TEAM_A],
    [undefined, '', null],
  ] as const)('%s with Settings at %j → %s', (legacy, settings, bound) => {
    expect(legacyBaseUrl(legacy, settings)).toBe(bound);
  });
});

describe('bindLegacyKey', () => {
  async function legacyVault(record: (stored: Record<string, unknown>) => object) {
    const kv = new InMemoryKv('/d', 'key-vault');
    const cipher = new InMemoryCipher();
    const written = new KeyVault({ store: kv, cipher, now: () => 1 });
    await written.setKey(KEY, { allowWeakStorage: false, baseUrl: TEAM_A });
    const { baseUrl: _bound, ...stored } = kv.get(KEY_RECORD_NAME) as Record<string, unknown>;
    kv.set(KEY_RECORD_NAME, record(stored));
    return new KeyVault({ store: kv, cipher, now: () => 1 });
  }

  function appAt(vault: KeyVault, baseUrl: string) {
    const settings = new SettingsService({ store: new InMemoryKv('/d', 'settings'), now: () => 1 });
    if (baseUrl) settings.update(ownAddress(baseUrl));
    bindLegacyKey(vault, savedAddress(settings.get()), silentLogger);
    return {
      settings,
      credentials: new AppCredentials({ keys: ownKeyOnly(vault), settings, demoUrl: () => null }),
    };
  }

  it('lets an origin-bound key keep working for its base URL, and for no sibling path', async () => {
    const vault = await legacyVault((stored) => ({ ...stored, origin: 'https://gateway.example' }));
    const { settings, credentials } = appAt(vault, TEAM_A);
    expect(vault.boundBaseUrl()).toBe(TEAM_A);
    expect(await credentials.credentialsFor(TEAM_A)).toMatchObject({ key: KEY });
    for (const sibling of ['https://gateway.example/team-b', 'https://gateway.example']) {
      settings.update(ownAddress(sibling));
      expect(await credentials.credentialsFor(sibling), sibling).toBeNull();
    }
  });

  it('binds once: a key already bound to a base URL is left as it is', async () => {
    const vault = await legacyVault((stored) => ({ ...stored, baseUrl: TEAM_A }));
    appAt(vault, 'https://gateway.example/team-b');
    expect(vault.boundBaseUrl()).toBe(TEAM_A);
  });

  it('keeps a key saved before any address with no one', async () => {
    const vault = await legacyVault((stored) => ({ ...stored, origin: null }));
    const { credentials } = appAt(vault, TEAM_A);
    expect(vault.boundBaseUrl()).toBeNull();
    expect(await credentials.credentialsFor(TEAM_A)).toBeNull();
  });
});
