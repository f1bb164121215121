import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import { AppCredentials } from '../../../electron/app/app-credentials';
import { DEMO_ENDPOINT, DEMO_KEY } from '../../../electron/core/service/demo-endpoint';
import { credentialsForRecord } from '../../../electron/core/credentials/record-credentials';
import { KeyVault } from '../../../electron/core/key-vault/key-vault';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';
import { makeTaskRecord } from '../../support/task-records';
import { ownAddress, ownKeyOnly } from '../../support/own-address';

const KEY = 'sk-live-credentials-test-key';
const BASE = 'https://api.example.com/proxy';

function app(options: { demoUrl?: string | null; ready?: boolean } = {}) {
  const cipher = new InMemoryCipher({ ready: options.ready ?? true });
  const vault = new KeyVault({ store: new InMemoryKv('/d', 'key-vault'), cipher, now: () => 1 });
  const settings = new SettingsService({ store: new InMemoryKv('/d', 'settings'), now: () => 1 });
  let demoUrl = options.demoUrl === undefined ? 'http://127.0.0.1:40111' : options.demoUrl;
  const credentials = new AppCredentials({
    keys: ownKeyOnly(vault),
    settings,
    demoUrl: () => demoUrl,
  });
  const flips: boolean[] = [];
  credentials.onDemoChange((demo) => flips.push(demo));
  const setDemoUrl = (url: string | null) => (demoUrl = url);
  return { cipher, vault, settings, credentials, flips, setDemoUrl };
}

describe('AppCredentials', () => {
  it('uses the demo service with the key "demo" while there is neither key nor base URL', async () => {
    const { credentials } = app();
    expect(credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);
    expect(credentials.isDemo()).toBe(true);
    expect(await credentials.credentialsFor(DEMO_ENDPOINT)).toEqual({
      baseUrl: 'http://127.0.0.1:40111',
      key: DEMO_KEY,
      keyFingerprint: await keyFingerprint(DEMO_KEY),
    });
    expect(credentials.baseUrlFor(DEMO_ENDPOINT)).toBe('http://127.0.0.1:40111');
  });

  it('has no demo credentials while the demo service is not running', async () => {
    const { credentials, setDemoUrl } = app({ demoUrl: null });
    expect(await credentials.credentialsFor(DEMO_ENDPOINT)).toBeNull();
    expect(credentials.baseUrlFor(DEMO_ENDPOINT)).toBeNull();
    setDemoUrl('http://127.0.0.1:40222');
    expect((await credentials.credentialsFor(DEMO_ENDPOINT))?.baseUrl).toBe(
      'http://127.0.0.1:40222',
    );
  });

  it('sends nothing for a task of another dialect’s demo, which the window does not run', async () => {
    const { credentials, vault, settings } = app();
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    settings.update(ownAddress(BASE));
    for (const endpoint of ['demo:fal', 'demo:replicate', 'demo:dashscope', 'demo:bfl']) {
      expect(await credentials.credentialsFor(endpoint), endpoint).toBeNull();
      expect(credentials.baseUrlFor(endpoint), endpoint).toBeNull();
      expect(credentials.missingKeyReason(endpoint)).toMatchObject({
        key: 'error.settings.taskDemoDialect',
      });
      const record = makeTaskRecord({ endpoint, provider: 'fal', status: 'processing' });
      const found = await credentialsForRecord(credentials, record);
      expect(found.ok).toBe(false);
      if (!found.ok) expect(found.error.message).not.toContain(KEY);
    }
  });

  it('stays on the demo with a key but no base URL, and with a base URL but no key', async () => {
    const keyOnly = app();
    await keyOnly.vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    expect(keyOnly.credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);

    const urlOnly = app();
    urlOnly.settings.update(ownAddress(BASE));
    expect(urlOnly.credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);
    expect(await urlOnly.credentials.credentialsFor(BASE)).toBeNull();
  });

  it('uses the user’s service, reading the key at call time, once both are set', async () => {
    const { credentials, vault, settings, cipher, flips } = app();
    settings.update(ownAddress(`${BASE}/`));
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    expect(credentials.currentEndpoint()).toBe(BASE);
    expect(credentials.isDemo()).toBe(false);
    expect(flips).toEqual([false]);

    const decrypts = cipher.calls.decrypt;
    expect(await credentials.credentialsFor(BASE)).toEqual({
      baseUrl: BASE,
      key: KEY,
      keyFingerprint: await keyFingerprint(KEY),
      provider: 'pictor',
    });
    expect(await credentials.credentialsFor(`${BASE}/`)).toMatchObject({ key: KEY });
    expect(cipher.calls.decrypt).toBe(decrypts + 2);
    expect(credentials.baseUrlFor(BASE)).toBe(BASE);
  });

  it('gives no credentials for another base URL (older tasks wait), but still its base URL', async () => {
    const { credentials, vault, settings } = app();
    settings.update(ownAddress(BASE));
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    const older = 'https://old.example.com';
    expect(await credentials.credentialsFor(older)).toBeNull();
    expect(credentials.baseUrlFor(older)).toBe(older);
    expect(credentials.baseUrlFor('not a url')).toBeNull();
    expect(await credentials.credentialsFor('not a url')).toBeNull();
  });

  it('goes back to the demo when the key is cleared or cannot be decrypted', async () => {
    const { credentials, vault, settings, cipher, flips } = app();
    settings.update(ownAddress(BASE));
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    cipher.decryptFault = 'throws';
    expect(await credentials.credentialsFor(BASE)).toBeNull();
    expect(credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);
    cipher.decryptFault = 'none';
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    vault.clear();
    expect(credentials.isDemo()).toBe(true);
    expect(await credentials.credentialsFor(BASE)).toBeNull();
    expect(flips).toEqual([false, true, false, true]);
  });

  it('sends the key only to the base URL it was entered for, whatever the address says', async () => {
    const { credentials, vault, settings } = app();
    settings.update(ownAddress(BASE));
    // The same address on another port, scheme, host or path: each is another base URL.
    for (const baseUrl of [
      'https://api.example.com:8443/proxy',
      'http://127.0.0.1/proxy',
      'https://evil.example.com/proxy',
      'https://api.example.com',
      'https://api.example.com/proxy2',
      'https://api.example.com/proxy/team',
      'https://api.example.com/Proxy',
      null,
    ]) {
      await vault.setKey(KEY, { allowWeakStorage: false, baseUrl });
      expect(await credentials.credentialsFor(BASE), String(baseUrl)).toBeNull();
    }
    vault.bindBaseUrl(BASE);
    expect(await credentials.credentialsFor(BASE)).toMatchObject({ key: KEY });
    // Spellings of the same base URL are the same base URL.
    for (const same of [`${BASE}/`, `${BASE}/v1`, 'HTTPS://API.EXAMPLE.COM:443/proxy/']) {
      expect(await credentials.credentialsFor(same), same).toMatchObject({ key: KEY });
    }
    // Moving the address elsewhere without binding the key there sends the key nowhere.
    for (const elsewhere of ['https://evil.example.com/v1', 'https://api.example.com/other']) {
      settings.update(ownAddress(elsewhere));
      expect(await credentials.credentialsFor(elsewhere), elsewhere).toBeNull();
    }
  });

  it('gives "Test connection" the key for its own base URL only, saved or not', async () => {
    const { credentials, vault, settings } = app();
    expect(await credentials.storedKeyFor(BASE)).toEqual({ found: 'none' });
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    // Nothing saved yet: the typed address alone decides, by its base URL.
    expect(await credentials.storedKeyFor(`${BASE}/v1/`)).toEqual({
      found: 'key',
      credentials: {
        baseUrl: BASE,
        key: KEY,
        keyFingerprint: await keyFingerprint(KEY),
        provider: 'pictor',
      },
    });
    settings.update(ownAddress(BASE));
    for (const other of [
      'https://evil.example.com/proxy',
      'https://api.example.com/other',
      'https://api.example.com',
      'not a url',
    ]) {
      expect(await credentials.storedKeyFor(other), other).toEqual({
        found: 'other',
        keyBaseUrl: BASE,
      });
    }
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: null });
    expect(await credentials.storedKeyFor(BASE)).toEqual({ found: 'other', keyBaseUrl: null });
    vault.clear();
    expect(await credentials.storedKeyFor(BASE)).toEqual({ found: 'none' });
  });

  it('says an imported task’s service is the file’s word, and never invites the key there', async () => {
    const { credentials, vault, settings } = app();
    const record = (endpoint: string) => ({ endpoint, imported: true });
    const reasonFor = async (endpoint: string) => {
      const outcome = await credentialsForRecord(credentials, record(endpoint));
      return outcome.ok ? null : outcome.error;
    };
    for (const bound of [undefined, null, BASE] as const) {
      if (bound !== undefined) await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: bound });
      for (const endpoint of ['https://attacker.example/v1', 'https://api.example.com/team-b']) {
        const error = await reasonFor(endpoint);
        expect(error?.sentence?.key, `${String(bound)} ${endpoint}`).toBe(
          'error.settings.importedOtherService',
        );
        expect(error?.message).toContain(new URL(endpoint).host);
        expect(error?.message).not.toMatch(/choose to send the key/);
      }
    }
    // On the key's own service an imported task is like any other: the address decides.
    expect((await reasonFor(`${BASE}/v1`))?.sentence?.key).toBe('error.settings.taskOldAddress');
    settings.update(ownAddress(BASE));
    expect(await credentialsForRecord(credentials, record(BASE))).toMatchObject({ ok: true });
    // The user's own tasks keep the sentences that point at Settings.
    expect(credentials.missingKeyReason('https://attacker.example').key).toBe(
      'error.settings.taskOtherOrigin',
    );
  });

  it('keeps a stored key’s service before its storage answered, never the demo', async () => {
    const kv = new InMemoryKv('/d', 'key-vault');
    const first = new KeyVault({ store: kv, cipher: new InMemoryCipher(), now: () => 1 });
    await first.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    const cipher = new InMemoryCipher({ ready: false });
    const vault = new KeyVault({ store: kv, cipher, now: () => 1 });
    const settings = new SettingsService({ store: new InMemoryKv('/d', 's'), now: () => 1 });
    settings.update(ownAddress(BASE));
    const credentials = new AppCredentials({
      keys: ownKeyOnly(vault),
      settings,
      demoUrl: () => null,
    });
    const flips: boolean[] = [];
    credentials.onDemoChange((demo) => flips.push(demo));
    // A submit meanwhile goes to the user's service (and waits for the key where the cipher can
    // say when it is ready: KeyVault.readKey), not to the built-in demo.
    expect(credentials.isDemo()).toBe(false);
    expect(credentials.currentEndpoint()).not.toBe('demo:');
    expect(await credentials.credentialsFor(BASE)).toBeNull();
    cipher.ready = true;
    await vault.verify();
    expect(flips).toEqual([]);
    expect(await credentials.credentialsFor(BASE)).toMatchObject({ key: KEY });
  });

  it('stays on the demo before the app is ready when no key is stored', () => {
    const vault = new KeyVault({
      store: new InMemoryKv('/d', 'key-vault'),
      cipher: new InMemoryCipher({ ready: false }),
      now: () => 1,
    });
    const settings = new SettingsService({ store: new InMemoryKv('/d', 's'), now: () => 1 });
    settings.update(ownAddress(BASE));
    const credentials = new AppCredentials({
      keys: ownKeyOnly(vault),
      settings,
      demoUrl: () => null,
    });
    expect(credentials.isDemo()).toBe(true);
  });

  it('tells demo changes only when the answer flips, and stops when unsubscribed', async () => {
    const { credentials, vault, settings } = app();
    const seen: boolean[] = [];
    const subscription = credentials.onDemoChange((demo) => seen.push(demo));
    settings.update({ theme: 'dark' });
    settings.update(ownAddress(BASE));
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: BASE });
    settings.update(ownAddress('https://other.example.com'));
    subscription.dispose();
    settings.update(ownAddress(''));
    expect(seen).toEqual([false]);
  });
});
