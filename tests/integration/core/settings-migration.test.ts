/**
 * A settings file written by the version before services were one model (the user's own service's
 * address in a field of its own, `baseUrl`) opens with that address as the service's entry among
 * every service's addresses, the other services' addresses and the name as they were, and the key
 * stored for it still sent there, and only there. Real files (settings.json and the key's vault
 * file), a real runtime, real demo services on loopback counting the requests that carry the key.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { KeyVault } from '../../../electron/core/key-vault/key-vault';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { typedAddress } from '../../../shared/domain/submit-target';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { startTestRuntime } from '../../support/app-runtime';
import { ownAddress } from '../../support/own-address';
import { targetOf } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-earlier-file-0123456789abcdef';
const FAL_PROXY = 'https://proxy.example.com/fal';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function service(key: string): Promise<DemoService> {
  const started = await startDemoService({ accounts: [{ account: 'a', key }], durationMs: 50 });
  cleanups.push(() => started.close());
  return started;
}

/** Requests `at` saw carrying the key. */
function keyed(at: DemoService): number {
  const { submits, polls } = at.log;
  return [...submits, ...polls].filter((entry) => entry.headers.authorization === `Bearer ${KEY}`)
    .length;
}

/** Every field the earlier version wrote, as it wrote them (its address normalised). */
function earlierSettings(address: string): Record<string, unknown> {
  return {
    baseUrl: address,
    serviceName: 'Team A',
    provider: 'pictor',
    serviceBaseUrls: { fal: FAL_PROXY },
    defaultModel: 'img-2',
    defaultSize: '1024x1024',
    defaultQuality: 'auto',
    defaultCount: 2,
    galleryDir: '',
    notifications: true,
    theme: 'system',
    language: 'system',
    watchTimeoutMinutes: 30,
    updateMode: 'download',
    neverUploadInputs: false,
    publicUploadConsent: [],
  };
}

/** A data folder as the earlier version left it: its settings file and the key's vault file. */
async function earlierFolder(address: string) {
  const dir = await tempFolder('settings-migration');
  cleanups.push(() => removeFolder(dir));
  const dataDir = join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  const settingsFile = join(dataDir, 'settings.json');
  await writeFile(settingsFile, JSON.stringify({ settings: earlierSettings(address) }));
  const cipher = new InMemoryCipher({ backend: 'gnome_libsecret' });
  const vaultStore = (provider: string) => new JsonFileKv(dataDir, `key-vault-${provider}`);
  // The key as the vault keeps it, bound to the address it was entered for.
  const vault = new KeyVault({ store: vaultStore('pictor'), cipher, now: () => 0 });
  await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: address });
  const runtime = await startTestRuntime(dir, {
    cipher,
    settingsStore: new JsonFileKv(dataDir, 'settings'),
    serviceVaultStore: vaultStore,
  });
  cleanups.push(() => runtime.close());
  return { runtime, settingsFile };
}

describe('a settings file of the earlier shape', () => {
  it('opens with the address and the key intact; the key still works, and only there', async () => {
    const own = await service(KEY);
    const elsewhere = await service('sk-someone-else');
    const { runtime, settingsFile } = await earlierFolder(own.url);

    const settings = runtime.settings.get();
    expect(typedAddress(settings, 'pictor')).toBe(own.url);
    expect(settings.serviceBaseUrls).toEqual({ pictor: own.url, fal: FAL_PROXY });
    expect(settings).toMatchObject({
      serviceName: 'Team A',
      defaultModel: 'img-2',
      defaultCount: 2,
    });
    expect(settings).not.toHaveProperty('baseUrl');
    expect(runtime.settings.takeProblems()).toEqual([]);
    expect(runtime.vault.status()).toMatchObject({ state: 'ready', baseUrl: own.url });
    expect(runtime.credentials.isDemo()).toBe(false);

    // The key still works: a task goes to the service with it and finishes.
    runtime.core.engine.start();
    const [record] = await runtime.core.engine.submit(
      { prompt: 'after the move', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const [done] = await runtime.core.engine.whenSettled([record!.localId]);
    expect(done?.status).toBe('completed');
    expect(keyed(own)).toBeGreaterThan(0);

    // ...and goes nowhere else: not to another address, not when the address is changed there
    // without the user's answer (no dialog here: the change is refused and the address stays).
    expect(await runtime.credentials.credentialsFor(elsewhere.url)).toBeNull();
    await expect(runtime.updateSettings(ownAddress(elsewhere.url))).rejects.toThrow();
    expect(typedAddress(runtime.settings.get(), 'pictor')).toBe(own.url);
    expect(keyed(elsewhere)).toBe(0);

    // The next change of a setting writes today's shape: one home for the address.
    await runtime.updateSettings({ theme: 'dark' });
    const written = JSON.parse(await readFile(settingsFile, 'utf8')) as {
      settings: Record<string, unknown>;
    };
    expect(written.settings).not.toHaveProperty('baseUrl');
    expect(written.settings['serviceBaseUrls']).toEqual({ pictor: own.url, fal: FAL_PROXY });
  });

  it('keeps an address the file already holds in today’s shape, and drops only a bad one', async () => {
    const own = await service(KEY);
    const dir = await tempFolder('settings-migration');
    cleanups.push(() => removeFolder(dir));
    const store = new JsonFileKv(dir, 'settings');
    store.set('settings', {
      ...earlierSettings('https://stale.example.com'),
      serviceBaseUrls: { pictor: own.url, fal: 'ftp://not-a-service', bfl: 'https://bfl.example' },
    });
    const runtime = await startTestRuntime(dir, { settingsStore: new JsonFileKv(dir, 'settings') });
    cleanups.push(() => runtime.close());
    // Today's entry wins over the earlier field; a bad address costs its own service only.
    expect(runtime.settings.get().serviceBaseUrls).toEqual({
      pictor: own.url,
      bfl: 'https://bfl.example',
    });
  });
});
