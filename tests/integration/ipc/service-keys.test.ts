/**
 * The `keys:` channels and the chosen service over a real AppRuntime, through the IPC bridge that
 * parses every request: a key per service, bound to that service's address; bad input refused
 * before a handler runs; a submit goes to the service its target names, with that service's
 * key, and its task says which service it lives on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import { PROVIDER_IDS } from '../../../shared/domain/providers';
import { closedPort } from '../../support/http-servers';
import { wiredIpc } from '../../support/wired-ipc';
import { testImageEngine } from '../../support/image-engine';
import { ownAddress } from '../../support/own-address';

const FAL_KEY = 'fal-key-LEAKCANARY-0123456789';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const wiredApp = () => wiredIpc(cleanups, { prefix: 'pictor-keys-' });

describe('keys per service over IPC', () => {
  it('stores a key for one service, bound to its address, and tells only statuses', async () => {
    const { runtime, emitted, request } = await wiredApp();
    // Saved without its check (fal's own address is not asked from a test): "not checked yet".
    const stored = await request('keys:set', {
      provider: 'fal',
      key: FAL_KEY,
      allowWeakStorage: false,
      skipCheck: true,
    });
    expect(stored).toMatchObject({
      ok: true,
      value: {
        outcome: 'saved',
        status: { state: 'ready', baseUrl: 'https://queue.fal.run', check: null },
      },
    });
    const statuses = await request('keys:getStatuses', undefined);
    expect(statuses).toMatchObject({
      ok: true,
      value: { fal: { state: 'ready' }, pictor: { state: 'not_set' }, bfl: { state: 'not_set' } },
    });
    expect(emitted).toContainEqual(['keys:changed', expect.objectContaining({ provider: 'fal' })]);
    expect(await runtime.keys.vault('fal').readKey()).toBe(FAL_KEY);
    expect(JSON.stringify([stored, statuses, emitted])).not.toContain('LEAKCANARY');

    expect(await request('keys:clear', { provider: 'fal' })).toMatchObject({
      ok: true,
      value: { state: 'not_set' },
    });
    expect(runtime.keys.vault('fal').hasKey()).toBe(false);
  });

  it.each([
    ['keys:set', { provider: 'openai', key: FAL_KEY, allowWeakStorage: false }],
    ['keys:set', { key: FAL_KEY, allowWeakStorage: false }],
    [
      'keys:set',
      { provider: 'fal', key: FAL_KEY, allowWeakStorage: false, baseUrl: 'https://evil.example' },
    ],
    [
      'keys:set',
      { provider: 'fal', key: `${FAL_KEY}${'x'.repeat(5_000)}`, allowWeakStorage: false },
    ],
    ['keys:clear', { provider: '__proto__' }],
    ['keys:clear', undefined],
    ['settings:update', { provider: 'openai' }],
    ['settings:update', { serviceBaseUrls: { fal: 42 } }],
    ['settings:update', { serviceBaseUrls: { evil: 'https://evil.example' } }],
  ] as const)('refuses %s %j before any handler runs, echoing no key', async (channel, raw) => {
    const { runtime, request } = await wiredApp();
    const result = await request(channel, raw);
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(JSON.stringify(result)).not.toContain('LEAKCANARY');
    expect(runtime.keys.vault('fal').hasKey()).toBe(false);
    expect(runtime.settings.get().provider).toBe('pictor');
  });

  it('refuses two services at one address, in a sentence, and asks before moving a key', async () => {
    const { runtime, request } = await wiredApp();
    const shared = await request('settings:update', ownAddress('https://api.replicate.com'));
    expect(shared).toMatchObject({
      ok: false,
      error: { code: 'bad_input', sentence: { key: 'error.settings.addressShared' } },
    });
    await request('keys:set', {
      provider: 'fal',
      key: FAL_KEY,
      allowWeakStorage: false,
      skipCheck: true,
    });
    // Nobody can be asked in this runtime: the key stays with fal's own address.
    const moved = await request('settings:update', {
      serviceBaseUrls: { fal: 'https://proxy.example.com/fal' },
    });
    expect(moved).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.settings.keyStaysWith' } },
    });
    expect(runtime.settings.get().serviceBaseUrls).toEqual({});
    expect(runtime.keys.vault('fal').boundBaseUrl()).toBe('https://queue.fal.run');
  });

  it('submits to the chosen service with its key, and the task names that service', async () => {
    const { runtime, request } = await wiredApp();
    const fal = await startDemoService({
      dialect: 'fal',
      durationMs: 100,
      images: testImageEngine,
      accounts: [{ account: 'fal-user', key: FAL_KEY }],
    });
    cleanups.push(() => fal.close());
    expect(await request('settings:update', { provider: 'fal' })).toMatchObject({ ok: true });
    // No fal key yet: refused, never sent to the built-in demo service instead.
    const falTarget = { provider: 'fal', endpoint: 'https://queue.fal.run' } as const;
    const refused = await request('tasks:submit', {
      request: { prompt: 'a fox' },
      target: falTarget,
      count: 1,
    });
    expect(refused).toMatchObject({ ok: false });
    expect(runtime.credentials.isDemo()).toBe(false);

    await request('settings:update', { serviceBaseUrls: { fal: fal.url } });
    expect(
      await request('keys:set', { provider: 'fal', key: FAL_KEY, allowWeakStorage: false }),
    ).toMatchObject({
      ok: true,
      value: { outcome: 'saved', status: { check: { outcome: 'accepted' } } },
    });
    const submitted = await request('tasks:submit', {
      request: { prompt: 'a fox', model: 'fal-ai/flux/schnell', size: '64x64' },
      target: { provider: 'fal', endpoint: fal.url },
      count: 1,
    });
    if (!submitted.ok) throw new Error(submitted.error.message);
    const [item] = submitted.value as { record: { localId: string } }[];
    const [done] = await runtime.core.engine.whenSettled([item!.record.localId]);
    expect(done).toMatchObject({ status: 'completed', provider: 'fal', endpoint: fal.url });
    expect(done?.images[0]?.state).toBe('saved');
  });
});

describe.each(PROVIDER_IDS)(
  'Save checks a %s key with its service, the same way for every service',
  (provider) => {
    const KEY = `${provider}-key-LEAKCANARY-0123456789`;
    const WRONG = `${provider}-wrong-LEAKCANARY-9876543210`;
    const addressOf = (url: string) => ({ serviceBaseUrls: { [provider]: url } });

    it('accepted: stored with its check; refused: not stored, the reason comes back', async () => {
      const { runtime, request } = await wiredApp();
      const service = await startDemoService({
        dialect: provider,
        accounts: [{ account: 'alice', key: KEY }],
      });
      cleanups.push(() => service.close());
      expect(await request('settings:update', addressOf(service.url))).toMatchObject({ ok: true });

      const refused = await request('keys:set', { provider, key: WRONG, allowWeakStorage: false });
      expect(refused).toMatchObject({
        ok: true,
        value: {
          outcome: 'refused',
          report: { outcome: 'key_refused', sentence: { key: 'error.service.testKeyRefused' } },
        },
      });
      expect(runtime.keys.vault(provider).hasKey()).toBe(false);

      const saved = await request('keys:set', { provider, key: KEY, allowWeakStorage: false });
      expect(saved).toMatchObject({
        ok: true,
        value: {
          outcome: 'saved',
          status: { state: 'ready', baseUrl: service.url, check: { outcome: 'accepted' } },
        },
      });
      expect(await runtime.keys.vault(provider).readKey()).toBe(KEY);
      // Test connection asks the same channel of every service, at its saved address.
      const tested = await request('service:testService', { provider });
      expect(tested).toMatchObject({ ok: true, value: { ok: true, outcome: 'accepted' } });
      expect(JSON.stringify([refused, saved, tested])).not.toContain('LEAKCANARY');
      // The check created nothing there.
      expect(service.log.submits).toEqual([]);
    });

    it('unreachable: nothing stored until the user says "save without checking"', async () => {
      const { runtime, request } = await wiredApp();
      const address = `http://127.0.0.1:${await closedPort()}`;
      expect(await request('settings:update', addressOf(address))).toMatchObject({ ok: true });
      const asked = await request('keys:set', { provider, key: KEY, allowWeakStorage: false });
      expect(asked).toMatchObject({
        ok: true,
        value: {
          outcome: 'unchecked',
          report: { outcome: 'unreachable', sentence: { key: 'error.service.testPortClosed' } },
        },
      });
      expect(runtime.keys.vault(provider).hasKey()).toBe(false);
      const anyway = await request('keys:set', {
        provider,
        key: KEY,
        allowWeakStorage: false,
        skipCheck: true,
      });
      expect(anyway).toMatchObject({
        ok: true,
        value: { outcome: 'saved', status: { state: 'ready', baseUrl: address, check: null } },
      });
    });
  },
);
