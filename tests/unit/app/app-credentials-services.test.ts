import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings';
import { englishText } from '../../../shared/i18n/sentence';
import { AppCredentials } from '../../../electron/app/app-credentials';
import { DEMO_ENDPOINT } from '../../../electron/core/service/demo-endpoint';
import { credentialsForRecord } from '../../../electron/core/credentials/record-credentials';
import { ServiceKeys } from '../../../electron/core/key-vault/service-keys';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';
import { ownAddress } from '../../support/own-address';

const PICTOR_KEY = 'sk-live-pictor-service-key';
const FAL_KEY = 'fal-key-0123456789';
const BASE = 'https://api.example.com/proxy';
const FAL = 'https://queue.fal.run';

function app(settingsStore = new InMemoryKv('/d', 'settings')) {
  const keys = new ServiceKeys({
    storeFor: (provider) => new InMemoryKv('/d', `key-vault-${provider}`),
    cipher: new InMemoryCipher(),
    now: () => 1,
  });
  const settings = new SettingsService({ store: settingsStore, now: () => 1 });
  const credentials = new AppCredentials({
    keys,
    settings,
    demoUrl: () => 'http://127.0.0.1:40111',
  });
  return { keys, settings, credentials };
}

describe('AppCredentials with a key per service', () => {
  it('gives each service’s key for its own address only, with its provider', async () => {
    const { keys, settings, credentials } = app();
    settings.update(ownAddress(BASE));
    await keys.vault('pictor').setKey(PICTOR_KEY, { allowWeakStorage: false, baseUrl: BASE });
    await keys.vault('fal').setKey(FAL_KEY, { allowWeakStorage: false, baseUrl: FAL });

    expect(await credentials.credentialsFor(FAL)).toEqual({
      baseUrl: FAL,
      key: FAL_KEY,
      keyFingerprint: await keyFingerprint(FAL_KEY),
      provider: 'fal',
    });
    expect(await credentials.credentialsFor(BASE)).toMatchObject({
      key: PICTOR_KEY,
      provider: 'pictor',
    });
    // Replicate's address has no key; no other service's key ever goes there.
    expect(await credentials.credentialsFor('https://api.replicate.com')).toBeNull();
  });

  it('gives a local ComfyUI no key when none was entered, and its own key only at its address', async () => {
    const { keys, settings, credentials } = app();
    const LOCAL = 'http://127.0.0.1:8188';
    expect(await credentials.credentialsFor(LOCAL)).toEqual({
      baseUrl: LOCAL,
      key: '',
      keyFingerprint: await keyFingerprint(''),
      provider: 'comfyui',
    });
    // Another service with no key still gets none; a stranger's address gets nothing.
    expect(await credentials.credentialsFor(FAL)).toBeNull();
    expect(await credentials.credentialsFor('http://127.0.0.1:8189')).toBeNull();
    // A proxy's key is bound to the proxy: the local address keeps going without one.
    const PROXY = 'https://comfy.example.com';
    settings.update({ serviceBaseUrls: { comfyui: PROXY } });
    await keys.vault('comfyui').setKey(FAL_KEY, { allowWeakStorage: false, baseUrl: PROXY });
    expect(await credentials.credentialsFor(PROXY)).toMatchObject({ key: FAL_KEY });
    expect(await credentials.credentialsFor(LOCAL)).toBeNull();
  });

  it('follows the chosen service for new tasks, refusing rather than falling back to the demo', async () => {
    const { keys, settings, credentials } = app();
    expect(credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);
    settings.update({ provider: 'fal' });
    expect(credentials.currentEndpoint()).toBe(FAL);
    expect(credentials.isDemo()).toBe(false);
    expect(await credentials.credentialsFor(FAL)).toBeNull();
    await keys.vault('fal').setKey(FAL_KEY, { allowWeakStorage: false, baseUrl: FAL });
    expect(await credentials.credentialsFor(credentials.currentEndpoint())).toMatchObject({
      provider: 'fal',
    });
    settings.update({ serviceBaseUrls: { fal: 'https://proxy.example.com/fal' } });
    expect(credentials.currentEndpoint()).toBe('https://proxy.example.com/fal');
    // The key was entered for fal's own address: it is not sent to the new one unasked.
    expect(await credentials.credentialsFor('https://proxy.example.com/fal')).toBeNull();
    settings.update({ provider: 'pictor' });
    expect(credentials.currentEndpoint()).toBe(DEMO_ENDPOINT);
  });

  it('sends no key to an address two services share, and says why', async () => {
    // Written before the rule (the settings refuse it now): today's contract at BFL's address.
    const store = new InMemoryKv('/d', 'settings');
    store.set('settings', { ...DEFAULT_SETTINGS, baseUrl: 'https://api.bfl.ai' });
    const { keys, credentials } = app(store);
    await keys
      .vault('bfl')
      .setKey(FAL_KEY, { allowWeakStorage: false, baseUrl: 'https://api.bfl.ai' });
    expect(await credentials.credentialsFor('https://api.bfl.ai')).toBeNull();
    const reason = credentials.missingKeyReason('https://api.bfl.ai');
    expect(reason.key).toBe('error.settings.taskAddressShared');
    expect(englishText(reason)).toContain('api.bfl.ai');
  });

  it('keeps a task of one service from the key of another (the record names its provider)', async () => {
    const { keys, credentials } = app();
    await keys.vault('fal').setKey(FAL_KEY, { allowWeakStorage: false, baseUrl: FAL });
    const answer = await credentialsForRecord(credentials, {
      endpoint: FAL,
      provider: 'replicate',
    });
    expect(answer.ok).toBe(false);
    const own = await credentialsForRecord(credentials, { endpoint: FAL, provider: 'fal' });
    expect(own).toMatchObject({ ok: true, credentials: { key: FAL_KEY } });
  });
});
