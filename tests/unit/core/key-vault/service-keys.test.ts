import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS, type ProviderId } from '../../../../shared/domain/providers';
import { KeyVault } from '../../../../electron/core/key-vault/key-vault';
import { ServiceKeys } from '../../../../electron/core/key-vault/service-keys';
import { InMemoryCipher } from '../../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../../fakes/in-memory-kv';
import { KEY, NOW, OTHER_KEY, expectNoKeyIn } from './vault-harness';

const BASE = 'https://gateway.example/team-a';
const FAL = 'https://queue.fal.run';

function serviceKeys(
  cipher = new InMemoryCipher(),
  earlierStore?: InMemoryKv,
  stores = new Map<ProviderId, InMemoryKv>(),
) {
  const keys = new ServiceKeys({
    storeFor: (provider) => {
      const store = stores.get(provider) ?? new InMemoryKv('/data', `key-vault-${provider}`);
      stores.set(provider, store);
      return store;
    },
    ...(earlierStore ? { earlierStore } : {}),
    cipher,
    now: () => NOW,
  });
  const told: [ProviderId, string][] = [];
  keys.onChange((provider, status) => told.push([provider, status.state]));
  return { keys, stores, told, cipher };
}

describe('ServiceKeys: one key per service', () => {
  it('moves the key an earlier version kept in key-vault.json, still encrypted, into its service’s own file', async () => {
    const file = new InMemoryKv('/data', 'key-vault');
    const cipher = new InMemoryCipher();
    const earlier = new KeyVault({ store: file, cipher, now: () => NOW });
    await earlier.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    const written = file.snapshot()['apiKey'];

    const { keys, stores } = serviceKeys(cipher, file);
    // The record moved byte for byte: never decrypted, never written in the clear.
    expect(stores.get('pictor')?.snapshot()).toEqual({ apiKey: written });
    expect(file.snapshot()).toEqual({});
    expectNoKeyIn([...stores.values()].map((store) => store.snapshot()));
    await keys.verify();
    expect(keys.vault('pictor').boundBaseUrl()).toBe(BASE);
    expect(await keys.vault('pictor').readKey()).toBe(KEY);
    expect(keys.statuses().pictor).toMatchObject({ state: 'ready', baseUrl: BASE });
    for (const provider of PROVIDER_IDS.filter((id) => id !== 'pictor')) {
      expect(keys.statuses()[provider].state, provider).toBe('not_set');
      expect(await keys.vault(provider).readKey(), provider).toBeNull();
    }
  });

  it('never replaces a key saved since with the earlier file’s, and keeps a damaged one aside', async () => {
    const cipher = new InMemoryCipher();
    const file = new InMemoryKv('/data', 'key-vault');
    await new KeyVault({ store: file, cipher, now: () => NOW }).setKey(KEY, {
      allowWeakStorage: false,
      baseUrl: BASE,
    });
    const stores = new Map<ProviderId, InMemoryKv>();
    const { keys } = serviceKeys(cipher, new InMemoryKv('/data', 'none'), stores);
    await keys.vault('pictor').setKey(OTHER_KEY, { allowWeakStorage: false, baseUrl: BASE });
    const reopened = serviceKeys(cipher, file, stores).keys;
    expect(await reopened.vault('pictor').readKey()).toBe(OTHER_KEY);

    const damaged = new InMemoryKv('/data', 'key-vault');
    damaged.damage();
    const afterDamage = serviceKeys(cipher, damaged, stores).keys;
    expect([...damaged.movedAside.keys()]).toEqual([
      expect.stringMatching(/key-vault\.corrupt-.*\.json$/),
    ]);
    expect(await afterDamage.vault('pictor').readKey()).toBe(OTHER_KEY);
  });

  it('moves it on the next start when the move was cut short, and not before it can write', async () => {
    const cipher = new InMemoryCipher();
    const file = new InMemoryKv('/data', 'key-vault');
    await new KeyVault({ store: file, cipher, now: () => NOW }).setKey(KEY, {
      allowWeakStorage: false,
      baseUrl: BASE,
    });
    const own = new InMemoryKv('/data', 'key-vault-pictor');
    own.failWrites = true;
    const stores = new Map<ProviderId, InMemoryKv>([['pictor', own]]);
    serviceKeys(cipher, file, stores);
    expect(file.snapshot()).toHaveProperty('apiKey');
    // A crash after the copy: both files hold the record; the next start ends the move.
    own.failWrites = false;
    own.set('apiKey', file.snapshot()['apiKey']);
    const { keys } = serviceKeys(cipher, file, stores);
    expect(file.snapshot()).toEqual({});
    expect(await keys.vault('pictor').readKey()).toBe(KEY);
  });

  it('keeps each service’s key in its own file, bound to its own address, encrypted', async () => {
    const { keys, stores, told } = serviceKeys();
    await keys.vault('pictor').setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    await keys.vault('fal').setKey(OTHER_KEY, { allowWeakStorage: false, baseUrl: FAL });
    expect(keys.vault('pictor').boundBaseUrl()).toBe(BASE);
    expect(keys.vault('fal').boundBaseUrl()).toBe(FAL);
    expect(await keys.vault('fal').readKey()).toBe(OTHER_KEY);
    expect(await keys.readableKeys()).toEqual([KEY, OTHER_KEY]);
    expect(told).toEqual([
      ['pictor', 'ready'],
      ['fal', 'ready'],
    ]);
    // No file, status or event holds a key in the clear.
    const files = [...stores.values()].map((store) => store.snapshot());
    expect(files.filter((file) => Object.keys(file).length > 0)).toHaveLength(2);
    expectNoKeyIn(files, keys.statuses(), told);

    keys.vault('fal').clear();
    expect(keys.statuses().fal.state).toBe('not_set');
    expect(await keys.vault('pictor').readKey()).toBe(KEY);
  });

  it('loses no other service’s key when one service’s file is damaged', async () => {
    const { keys, stores } = serviceKeys();
    await keys.vault('pictor').setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    await keys.vault('fal').setKey(OTHER_KEY, { allowWeakStorage: false, baseUrl: FAL });
    stores.get('fal')?.set('apiKey', { version: 1, garbage: true });
    const reopened = new ServiceKeys({
      storeFor: (provider) => stores.get(provider) as InMemoryKv,
      cipher: new InMemoryCipher(),
      now: () => NOW,
    });
    await reopened.verify();
    expect(reopened.statuses().fal.state).toBe('decrypt_failed');
    expect(await reopened.vault('pictor').readKey()).toBe(KEY);
  });
});
