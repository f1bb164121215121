import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import { AppCredentials } from '../../../electron/core/app-credentials';
import { DEMO_ENDPOINT, DEMO_KEY } from '../../../electron/core/credentials/demo-endpoint';
import { KeyVault } from '../../../electron/core/key-vault/key-vault';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';

const KEY = 'sk-live-credentials-test-key';
const BASE = 'https://api.example.com/proxy';
const ORIGIN = 'https://api.example.com';

function app(options: { demoUrl?: string | null; ready?: boolean } = {}) {
  const cipher = new InMemoryCipher({ ready: options.ready ?? true });
  const vault = new KeyVault({ store: new InMemoryKv('/d', 'key-vault'), cipher, now: () => 1 });
  const settings = new SettingsService({ store: new InMemoryKv('/d', 'settings'), now: () => 1 });
  let demoUrl = options.demoUrl === undefined ? 'http://127.0.0.1:40111' : options.demoUrl;
  const credentials = new AppCredentials({ vault, settings, demoUrl: () => demoUrl });
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

  it('stays on the demo with a key but no base URL, and with a base URL but no key', async () => {
    const keyOnly = app();
    await keyOnly.vault.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    expect(keyOnly.credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);

    const urlOnly = app();
    urlOnly.settings.update({ baseUrl: BASE });
    expect(urlOnly.credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);
    expect(await urlOnly.credentials.credentialsFor(BASE)).toBeNull();
  });

  it('uses the user’s service, reading the key at call time, once both are set', async () => {
    const { credentials, vault, settings, cipher, flips } = app();
    settings.update({ baseUrl: `${BASE}/` });
    await vault.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    expect(credentials.currentEndpoint()).toBe(BASE);
    expect(credentials.isDemo()).toBe(false);
    expect(flips).toEqual([false]);

    const decrypts = cipher.calls.decrypt;
    expect(await credentials.credentialsFor(BASE)).toEqual({
      baseUrl: BASE,
      key: KEY,
      keyFingerprint: await keyFingerprint(KEY),
    });
    expect(await credentials.credentialsFor(`${BASE}/`)).toMatchObject({ key: KEY });
    expect(cipher.calls.decrypt).toBe(decrypts + 2);
    expect(credentials.baseUrlFor(BASE)).toBe(BASE);
  });

  it('gives no credentials for another base URL (older tasks wait), but still its base URL', async () => {
    const { credentials, vault, settings } = app();
    settings.update({ baseUrl: BASE });
    await vault.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    const older = 'https://old.example.com';
    expect(await credentials.credentialsFor(older)).toBeNull();
    expect(credentials.baseUrlFor(older)).toBe(older);
    expect(credentials.baseUrlFor('not a url')).toBeNull();
    expect(await credentials.credentialsFor('not a url')).toBeNull();
  });

  it('goes back to the demo when the key is cleared or cannot be decrypted', async () => {
    const { credentials, vault, settings, cipher, flips } = app();
    settings.update({ baseUrl: BASE });
    await vault.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    cipher.decryptFault = 'throws';
    expect(await credentials.credentialsFor(BASE)).toBeNull();
    expect(credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);
    cipher.decryptFault = 'none';
    await vault.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    vault.clear();
    expect(credentials.isDemo()).toBe(true);
    expect(await credentials.credentialsFor(BASE)).toBeNull();
    expect(flips).toEqual([false, true, false, true]);
  });

  it('sends the key only to the origin it was entered for, whatever the base URL says', async () => {
    const { credentials, vault, settings } = app();
    settings.update({ baseUrl: BASE });
    // The same address, on another port, scheme or host: each is another origin.
    for (const origin of [
      'https://api.example.com:8443',
      'http://api.example.com',
      'https://evil.example.com',
      null,
    ]) {
      await vault.setKey(KEY, { allowWeakStorage: false, origin });
      expect(await credentials.credentialsFor(BASE)).toBeNull();
    }
    vault.bindOrigin(ORIGIN);
    expect(await credentials.credentialsFor(BASE)).toMatchObject({ key: KEY });
    // Moving the address elsewhere without binding the key there sends the key nowhere.
    settings.update({ baseUrl: 'https://evil.example.com/v1' });
    expect(await credentials.credentialsFor('https://evil.example.com/v1')).toBeNull();
  });

  it('gives "Test connection" the key for any address of its own origin, saved or not', async () => {
    const { credentials, vault, settings } = app();
    expect(await credentials.storedKeyFor(BASE)).toEqual({ found: 'none' });
    await vault.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    // Nothing saved yet: the typed address alone decides, by its origin.
    expect(await credentials.storedKeyFor('https://api.example.com/other')).toEqual({
      found: 'key',
      credentials: {
        baseUrl: 'https://api.example.com/other',
        key: KEY,
        keyFingerprint: await keyFingerprint(KEY),
      },
    });
    settings.update({ baseUrl: BASE });
    for (const other of ['https://evil.example.com', 'http://api.example.com', 'not a url']) {
      expect(await credentials.storedKeyFor(other)).toEqual({
        found: 'other_origin',
        keyOrigin: ORIGIN,
      });
    }
    await vault.setKey(KEY, { allowWeakStorage: false, origin: null });
    expect(await credentials.storedKeyFor(BASE)).toEqual({
      found: 'other_origin',
      keyOrigin: null,
    });
    vault.clear();
    expect(await credentials.storedKeyFor(BASE)).toEqual({ found: 'none' });
  });

  it('stays on the demo before the app is ready, and leaves it once ready', async () => {
    const kv = new InMemoryKv('/d', 'key-vault');
    const first = new KeyVault({ store: kv, cipher: new InMemoryCipher(), now: () => 1 });
    await first.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    const cipher = new InMemoryCipher({ ready: false });
    const vault = new KeyVault({ store: kv, cipher, now: () => 1 });
    const settings = new SettingsService({ store: new InMemoryKv('/d', 's'), now: () => 1 });
    settings.update({ baseUrl: BASE });
    const credentials = new AppCredentials({ vault, settings, demoUrl: () => null });
    const flips: boolean[] = [];
    credentials.onDemoChange((demo) => flips.push(demo));
    expect(credentials.isDemo()).toBe(true);
    expect(await credentials.credentialsFor(BASE)).toBeNull();
    cipher.ready = true;
    await vault.verify();
    expect(flips).toEqual([false]);
    expect(await credentials.credentialsFor(BASE)).toMatchObject({ key: KEY });
  });

  it('tells demo changes only when the answer flips, and stops when unsubscribed', async () => {
    const { credentials, vault, settings } = app();
    const seen: boolean[] = [];
    const off = credentials.onDemoChange((demo) => seen.push(demo));
    settings.update({ theme: 'dark' });
    settings.update({ baseUrl: BASE });
    await vault.setKey(KEY, { allowWeakStorage: false, origin: ORIGIN });
    settings.update({ baseUrl: 'https://other.example.com' });
    off();
    settings.update({ baseUrl: '' });
    expect(seen).toEqual([false]);
  });
});
