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
  pictorStore = new InMemoryKv('/data', 'key-vault'),
) {
  const stores = new Map<ProviderId, InMemoryKv>([['pictor', pictorStore]]);
  const keys = new ServiceKeys({
    store: pictorStore,
    storeFor: (provider) => {
      const store = new InMemoryKv('/data', `key-vault-${provider}`);
      stores.set(provider, store);
      return store;
    },
    cipher,
    now: () => NOW,
  });
  const told: [ProviderId, string][] = [];
  keys.onChange((provider, status) => told.push([provider, status.state]));
  return { keys, stores, told, cipher };
}

describe('ServiceKeys: one key per service', () => {
  it('reads the key an earlier version stored as today’s contract’s, with its address, rewriting nothing', async () => {
    const file = new InMemoryKv('/data', 'key-vault');
    const cipher = new InMemoryCipher();
    const earlier = new KeyVault({ store: file, cipher, now: () => NOW });
    await earlier.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    const before = JSON.stringify(file.snapshot());
    const writes = file.writes;

    const { keys } = serviceKeys(cipher, file);
    await keys.verify();
    expect(keys.vault('pictor').boundBaseUrl()).toBe(BASE);
    expect(await keys.vault('pictor').readKey()).toBe(KEY);
    expect(keys.statuses().pictor).toMatchObject({ state: 'ready', baseUrl: BASE });
    for (const provider of PROVIDER_IDS.filter((id) => id !== 'pictor')) {
      expect(keys.statuses()[provider].state, provider).toBe('not_set');
      expect(await keys.vault(provider).readKey(), provider).toBeNull();
    }
    expect(JSON.stringify(file.snapshot())).toBe(before);
    expect(file.writes).toBe(writes);
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
      store: stores.get('pictor') as InMemoryKv,
      storeFor: (provider) => stores.get(provider) as InMemoryKv,
      cipher: new InMemoryCipher(),
      now: () => NOW,
    });
    await reopened.verify();
    expect(reopened.statuses().fal.state).toBe('decrypt_failed');
    expect(await reopened.vault('pictor').readKey()).toBe(KEY);
  });
});
