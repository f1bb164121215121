/**
 * The key goes only to the origin it was entered for: a new service address on another origin
 * carries it along only when the user says so in the main process's own dialog, and a key stored
 * by an older version stays with the address it was being sent to. Real runtime, real demo
 * services on loopback (two "providers"), real requests counted on each.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { AppRuntime } from '../../../electron/core/app-runtime';
import { KEY_RECORD_NAME } from '../../../electron/core/key-vault/key-record';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { silentLogger } from '../../../electron/ports/logger';
import type { KeyOriginAnswer, KeyOriginQuestion } from '../../../electron/ports/user-prompts';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';
import { testImageEngine } from '../../support/image-engine';

const KEY = 'sk-provider-a-0123456789abcdef';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function provider(key = KEY): Promise<DemoService> {
  const service = await startDemoService({ accounts: [{ account: 'a', key }], durationMs: 100 });
  cleanups.push(() => service.close());
  return service;
}

/** Every request a service saw that carried our key. */
function keyedRequests(service: DemoService): number {
  const { submits, polls } = service.log;
  return [...submits, ...polls].filter((entry) => entry.headers.authorization === `Bearer ${KEY}`)
    .length;
}

async function start(
  options: { answer?: KeyOriginAnswer; stores?: ReturnType<typeof stores> } = {},
) {
  const dir = await mkdtemp(join(tmpdir(), 'pictor-origin-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const asked: KeyOriginQuestion[] = [];
  const prompts = { answer: options.answer ?? 'cancel' };
  const kv = options.stores ?? stores(dir);
  const runtime = await AppRuntime.start({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    defaultGalleryDir: join(dir, 'gallery'),
    cipher: kv.cipher,
    settingsStore: kv.settings,
    vaultStore: kv.vault,
    fetch: (url, init) => fetch(url, init),
    clock: systemClock,
    logger: silentLogger,
    demo: { durationMs: 100 },
    pollIntervalMs: 100,
    prompts: {
      confirmKeyOrigin: async (question) => {
        asked.push(question);
        return prompts.answer;
      },
    },
  });
  cleanups.push(() => runtime.close());
  return { runtime, asked, prompts };
}

function stores(dir: string) {
  return {
    cipher: new InMemoryCipher({ backend: 'gnome_libsecret' }),
    settings: new InMemoryKv(dir, 'settings'),
    vault: new InMemoryKv(dir, 'key-vault'),
  };
}

async function generateOnce(runtime: AppRuntime) {
  runtime.core.engine.start();
  const [record] = await runtime.core.engine.submit({ prompt: 'origin', size: '64x64' });
  const [done] = await runtime.core.engine.whenSettled([record!.localId]);
  return done!;
}

describe('the key is bound to the origin it was entered for', () => {
  it('binds a key to the address set when it is pasted, and uses it there', async () => {
    const a = await provider();
    const { runtime, asked } = await start();
    await runtime.updateSettings({ baseUrl: a.url });
    const status = await runtime.setKey(KEY, false);
    expect(status.origin).toBe(new URL(a.url).origin);
    expect(asked).toEqual([]);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(a)).toBeGreaterThan(0);
  });

  it('does not move the key to another origin when the user cancels: the address stays', async () => {
    const a = await provider();
    const attacker = await provider('sk-attacker');
    const { runtime, asked } = await start();
    await runtime.updateSettings({ baseUrl: a.url });
    await runtime.setKey(KEY, false);
    await expect(runtime.updateSettings({ baseUrl: attacker.url })).rejects.toThrow(
      /service address was not changed/,
    );
    expect(asked).toEqual([
      expect.objectContaining({ from: new URL(a.url).origin, to: new URL(attacker.url).origin }),
    ]);
    expect(runtime.settings.get().baseUrl).toBe(a.url);
    expect(runtime.vault.status().origin).toBe(new URL(a.url).origin);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(attacker)).toBe(0);
    expect(attacker.log.submits.length + attacker.log.polls.length).toBe(0);
  });

  it('carries the key along only after the user says so', async () => {
    const a = await provider();
    const b = await provider();
    const { runtime, asked } = await start({ answer: 'carry' });
    await runtime.updateSettings({ baseUrl: a.url });
    await runtime.setKey(KEY, false);
    await runtime.updateSettings({ baseUrl: b.url });
    expect(asked).toHaveLength(1);
    expect(runtime.vault.status().origin).toBe(new URL(b.url).origin);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(b)).toBeGreaterThan(0);
    expect(keyedRequests(a)).toBe(0);
  });

  it('removes the key and changes the address when the user chooses to enter a new key', async () => {
    const a = await provider();
    const b = await provider();
    const { runtime } = await start({ answer: 'forget' });
    await runtime.updateSettings({ baseUrl: a.url });
    await runtime.setKey(KEY, false);
    await runtime.updateSettings({ baseUrl: b.url });
    expect(runtime.settings.get().baseUrl).toBe(b.url);
    expect(runtime.vault.status().state).toBe('not_set');
    expect(runtime.credentials.isDemo()).toBe(true);
  });

  it('asks nothing for another path on the same origin, or for clearing the address', async () => {
    const a = await provider();
    const { runtime, asked } = await start();
    await runtime.updateSettings({ baseUrl: a.url });
    await runtime.setKey(KEY, false);
    await runtime.updateSettings({ baseUrl: `${a.url}/other` });
    await runtime.updateSettings({ baseUrl: '' });
    expect(asked).toEqual([]);
    expect(runtime.vault.status().origin).toBe(new URL(a.url).origin);
  });

  it('asks before binding a key pasted while no address was set', async () => {
    const a = await provider();
    const { runtime, asked, prompts } = await start();
    const status = await runtime.setKey(KEY, false);
    expect(status.origin).toBeNull();
    await expect(runtime.updateSettings({ baseUrl: a.url })).rejects.toThrow(/not changed/);
    expect(asked).toEqual([expect.objectContaining({ from: null })]);
    prompts.answer = 'carry';
    await runtime.updateSettings({ baseUrl: a.url });
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(a)).toBeGreaterThan(0);
  });

  it('asks once per change when the page sends many changes at once, in order', async () => {
    const a = await provider();
    const b = await provider();
    const { runtime, asked } = await start();
    await runtime.updateSettings({ baseUrl: a.url });
    await runtime.setKey(KEY, false);
    const results = await Promise.allSettled([
      runtime.updateSettings({ baseUrl: b.url }),
      runtime.updateSettings({ baseUrl: b.url }),
      runtime.setKey('sk-page-key', false),
      runtime.updateSettings({ baseUrl: b.url }),
    ]);
    // The two first changes are refused (cancel); the page's own key is bound to a's origin,
    // since the address never changed; then the last change is asked about again.
    expect(results.map((result) => result.status)).toEqual([
      'rejected',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    expect(asked).toHaveLength(3);
    expect(runtime.settings.get().baseUrl).toBe(a.url);
    expect(runtime.vault.status().origin).toBe(new URL(a.url).origin);
  });

  it('keeps a key stored by an older version with the address it was being sent to', async () => {
    const a = await provider();
    const dir = await mkdtemp(join(tmpdir(), 'pictor-legacy-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const kv = stores(dir);
    const first = await start({ stores: kv });
    await first.runtime.updateSettings({ baseUrl: a.url });
    await first.runtime.setKey(KEY, false);
    await first.runtime.close();
    // As an older version wrote it: no origin in the record.
    const { origin: _origin, ...legacy } = kv.vault.get(KEY_RECORD_NAME) as Record<string, unknown>;
    kv.vault.set(KEY_RECORD_NAME, legacy);
    const { runtime } = await start({ stores: kv });
    expect(runtime.vault.status().origin).toBe(new URL(a.url).origin);
    expect((kv.vault.get(KEY_RECORD_NAME) as { origin?: string }).origin).toBe(
      new URL(a.url).origin,
    );
    expect((await generateOnce(runtime)).status).toBe('completed');
  });
});
