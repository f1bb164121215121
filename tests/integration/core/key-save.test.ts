/**
 * What the service said of a key is kept honestly, across restarts, through the real runtime: a
 * key saved after its service accepted it reads "accepted" after a restart; one saved without a
 * check reads "not checked yet" after a restart too; a stored key Test connection finds refused
 * (revoked at the service since) reads "refused". Real vault records on the same stores, real
 * demo services on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../../electron/app/app-runtime';
import { testConnection } from '../../../electron/core/service/connection-test';
import { testServiceConnection } from '../../../electron/core/service/service-connection-test';
import { startDemoService } from '../../../electron/demo-service/server';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';
import { startTestRuntime } from '../../support/app-runtime';
import { closedPort } from '../../support/http-servers';
import { ownAddress, savedAddress } from '../../support/own-address';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-save-0123456789abcdef';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runtimes on the same files, as the app is after a restart. */
async function stores() {
  const dir = await tempFolder('key-save');
  cleanups.push(() => removeFolder(dir));
  const cipher = new InMemoryCipher({ backend: 'gnome_libsecret' });
  const settingsStore = new InMemoryKv(dir, 'settings');
  const vaults = new Map<string, InMemoryKv>();
  const serviceVaultStore = (provider: string) => {
    const store = vaults.get(provider) ?? new InMemoryKv(dir, `key-vault-${provider}`);
    vaults.set(provider, store);
    return store;
  };
  return async (): Promise<AppRuntime> => {
    const runtime = await startTestRuntime(dir, {
      cipher,
      settingsStore,
      serviceVaultStore,
    });
    cleanups.push(() => runtime.close());
    return runtime;
  };
}

const strong = { allowWeakStorage: false, skipCheck: false };

describe('a key’s check, kept across restarts', () => {
  it('accepted on Save reads accepted after a restart; a revoked key reads refused once tested', async () => {
    const service = await startDemoService({ accounts: [{ account: 'a', key: KEY }] });
    cleanups.push(() => service.close());
    const start = await stores();
    const first = await start();
    await first.updateSettings(ownAddress(service.url));
    expect(await first.saveKey(KEY, strong, 'pictor')).toMatchObject({
      outcome: 'saved',
      status: { check: { outcome: 'accepted' } },
    });
    await first.close();

    const second = await start();
    expect(second.vault.status()).toMatchObject({
      state: 'ready',
      baseUrl: service.url,
      check: { outcome: 'accepted' },
    });
    service.revokeKey(KEY);
    const report = await testConnection(
      {
        credentials: second.credentials,
        client: second.core.client,
        savedBaseUrl: () => savedAddress(second.settings.get()),
        recordCheck: (credentials, outcome) => second.recordKeyCheck(credentials, outcome),
      },
      service.url,
    );
    expect(report).toMatchObject({ outcome: 'key_refused' });
    await second.close();
    expect((await start()).vault.status().check).toMatchObject({ outcome: 'refused' });
  });

  it('saved without a check reads "not checked yet" after a restart, until a test accepts it', async () => {
    const start = await stores();
    const first = await start();
    const away = `http://127.0.0.1:${await closedPort()}`;
    await first.updateSettings({ serviceBaseUrls: { bfl: away } });
    expect(await first.saveKey(KEY, strong, 'bfl')).toMatchObject({ outcome: 'unchecked' });
    expect(first.keys.vault('bfl').hasKey()).toBe(false);
    expect(
      await first.saveKey(KEY, { allowWeakStorage: false, skipCheck: true }, 'bfl'),
    ).toMatchObject({ outcome: 'saved', status: { check: null } });
    await first.close();

    const second = await start();
    expect(second.keys.vault('bfl').status()).toMatchObject({ state: 'ready', check: null });
    // The service comes up at that address: Test connection asks, and its answer is kept.
    const bfl = await startDemoService({
      dialect: 'bfl',
      port: Number(new URL(away).port),
      accounts: [{ account: 'a', key: KEY }],
    });
    cleanups.push(() => bfl.close());
    const report = await testServiceConnection(
      {
        keys: second.credentials,
        client: second.core.client,
        addressOf: (provider) => second.credentials.addressOf(provider),
        now: () => Date.now(),
        recordCheck: (credentials, outcome) => second.recordKeyCheck(credentials, outcome),
      },
      'bfl',
    );
    expect(report).toMatchObject({ outcome: 'accepted' });
    expect(second.keys.vault('bfl').status().check).toMatchObject({ outcome: 'accepted' });
  });
});
