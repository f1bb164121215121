/**
 * The key goes only to the base URL it was entered for (origin and path): a new service address
 * with another base URL (another origin, or another tenant's path on a shared gateway) carries
 * it along only when the user says so in the main process's own dialog, and a key stored by an
 * older version stays with the address it was being sent to. Real runtime, real demo services
 * on loopback (two "providers", and a gateway serving both under two paths), real requests
 * counted on each.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { AppRuntime } from '../../../electron/app/app-runtime';
import { KEY_RECORD_NAME } from '../../../electron/core/key-vault/key-record';
import type { ProviderId } from '../../../shared/domain/providers';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { silentLogger } from '../../../electron/ports/logger';
import type { KeyOriginAnswer, KeyOriginQuestion } from '../../../electron/ports/user-prompts';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { startPathGateway, type PathGateway } from '../../support/path-gateway';
import { testImageEngine } from '../../support/image-engine';
import { targetOf } from '../../support/submit-target';
import { ownAddress, savedAddress } from '../../support/own-address';
import { removeFolder, tempFolder } from '../../support/temp-folders';

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
  const dir = await tempFolder('origin');
  cleanups.push(() => removeFolder(dir));
  const asked: KeyOriginQuestion[] = [];
  const prompts = { answer: options.answer ?? 'cancel' };
  const kv = options.stores ?? stores(dir);
  const runtime = await AppRuntime.start({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    defaultGalleryDir: join(dir, 'gallery'),
    cipher: kv.cipher,
    settingsStore: kv.settings,
    earlierVaultStore: kv.earlier,
    serviceVaultStore: kv.vault,
    fetch: (url, init) => fetch(url, init),
    clock: systemClock,
    logger: silentLogger,
    demo: { durationMs: 100 },
    pollIntervalMs: 100,
    ...bundledCoreWorkers(),
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
  const vaults = new Map<ProviderId, InMemoryKv>();
  return {
    cipher: new InMemoryCipher({ backend: 'gnome_libsecret' }),
    settings: new InMemoryKv(dir, 'settings'),
    /** The file earlier versions kept the user's own service's key in. */
    earlier: new InMemoryKv(dir, 'key-vault'),
    /** Each service's vault file, the same across restarts. */
    vault: (provider: ProviderId): InMemoryKv => {
      const store = vaults.get(provider) ?? new InMemoryKv(dir, `key-vault-${provider}`);
      vaults.set(provider, store);
      return store;
    },
  };
}

/** A gateway with two tenants, /team-a (the user's) and /team-b (someone else's). */
async function sharedGateway(): Promise<PathGateway> {
  const a = await provider();
  const b = await provider('sk-team-b');
  const gateway = await startPathGateway({ '/team-a': a.url, '/team-b': b.url });
  cleanups.push(() => gateway.close());
  return gateway;
}

/** What the gateway received with our key, anywhere but under /team-a/. */
function keyOutsideTeamA(gateway: PathGateway): string[] {
  return gateway.requests
    .filter((entry) => entry.authorization === `Bearer ${KEY}` && entry.tenant !== '/team-a')
    .map((entry) => entry.path);
}

/** The user on /team-a of a shared gateway, with the key pasted there. */
async function onTeamA(answer?: KeyOriginAnswer) {
  const gateway = await sharedGateway();
  const started = await start(answer ? { answer } : {});
  const teamA = gateway.url('/team-a');
  await started.runtime.updateSettings(ownAddress(teamA));
  await started.runtime.setKey(KEY, false);
  return { ...started, gateway, teamA };
}

async function generateOnce(runtime: AppRuntime) {
  runtime.core.engine.start();
  const [record] = await runtime.core.engine.submit(
    { prompt: 'origin', size: '64x64' },
    targetOf(runtime.credentials),
  );
  const [done] = await runtime.core.engine.whenSettled([record!.localId]);
  return done!;
}

describe('the key is bound to the base URL it was entered for', () => {
  it('binds a key to the address set when it is pasted, and uses it there', async () => {
    const a = await provider();
    const { runtime, asked } = await start();
    await runtime.updateSettings(ownAddress(a.url));
    const status = await runtime.setKey(KEY, false);
    expect(status.baseUrl).toBe(a.url);
    expect(asked).toEqual([]);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(a)).toBeGreaterThan(0);
  });

  it('does not move the key to another origin when the user cancels: the address stays', async () => {
    const a = await provider();
    const attacker = await provider('sk-attacker');
    const { runtime, asked } = await start();
    await runtime.updateSettings(ownAddress(a.url));
    await runtime.setKey(KEY, false);
    await expect(runtime.updateSettings(ownAddress(attacker.url))).rejects.toThrow(
      /service address was not changed/,
    );
    expect(asked).toEqual([expect.objectContaining({ from: a.url, to: attacker.url })]);
    expect(savedAddress(runtime.settings.get())).toBe(a.url);
    expect(runtime.vault.status().baseUrl).toBe(a.url);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(attacker)).toBe(0);
    expect(attacker.log.submits.length + attacker.log.polls.length).toBe(0);
  });

  it('asks for another tenant’s path on the same gateway like for another origin', async () => {
    const { gateway, runtime, asked, teamA } = await onTeamA();
    const otherPaths = [
      '/team-b',
      '/team-b/',
      '/team-a/../team-b',
      '/team-a/%2e%2e/team-b',
      '/team-a/sub',
      '/team-ab',
      '',
      '/',
      '/Team-A',
    ];
    for (const path of otherPaths) {
      await expect(
        runtime.updateSettings(ownAddress(`${gateway.origin}${path}`)),
        path,
      ).rejects.toThrow(/not changed/);
    }
    // Asked about the first; each other one would be asked about too, and is refused without a
    // question in the quiet spell after the user kept the key (app/key-question-gate.ts).
    expect(asked).toEqual([expect.objectContaining({ from: teamA, to: gateway.url('/team-b') })]);
    for (const path of otherPaths.slice(1)) {
      await expect(
        runtime.updateSettings(ownAddress(`${gateway.origin}${path}`)),
        path,
      ).rejects.toThrow(/does not ask again yet/);
    }
    expect(savedAddress(runtime.settings.get())).toBe(teamA);
    expect(runtime.vault.status().baseUrl).toBe(teamA);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(gateway.requests.some((entry) => entry.tenant === '/team-a')).toBe(true);
    expect(keyOutsideTeamA(gateway)).toEqual([]);
  });

  it('asks nothing for spellings of the same base URL, or for clearing the address', async () => {
    const { gateway, runtime, asked, teamA } = await onTeamA();
    const port = new URL(gateway.origin).port;
    for (const same of [
      `${teamA}/`,
      `${teamA}//`,
      `${teamA}/v1`,
      `${teamA}/v1/`,
      `HTTP://127.0.0.1:${port}/team-a`,
      `http://127.1:${port}/team-a`,
      `${gateway.origin}/x/../team-a`,
      `${gateway.origin}/%74eam%2Da`,
      '',
      teamA,
    ]) {
      await runtime.updateSettings(ownAddress(same));
    }
    expect(asked).toEqual([]);
    expect(runtime.vault.status().baseUrl).toBe(teamA);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyOutsideTeamA(gateway)).toEqual([]);
  });

  it('refuses a path a decoding gateway would read as another tenant’s, before asking', async () => {
    const { gateway, runtime, asked } = await onTeamA();
    for (const path of [
      '/team-a/..%2Fteam-b',
      '/team-a%2F..%2Fteam-b',
      '/team-a/%2e%2e%5Cteam-b',
    ]) {
      await expect(
        runtime.updateSettings(ownAddress(`${gateway.origin}${path}`)),
        path,
      ).rejects.toThrow(/“\.” or “\.\.”/);
    }
    expect(asked).toEqual([]);
    expect(gateway.requests).toEqual([]);
  });

  it('carries the key to another path only after the user says so, and then only there', async () => {
    const { gateway, runtime, asked } = await onTeamA('carry');
    await runtime.updateSettings(ownAddress(gateway.url('/team-b')));
    expect(asked).toHaveLength(1);
    expect(runtime.vault.status().baseUrl).toBe(gateway.url('/team-b'));
    // team-b's demo knows only its own key: the task is refused there, and only there.
    await generateOnce(runtime);
    const keyed = gateway.requests.filter((entry) => entry.authorization === `Bearer ${KEY}`);
    expect(keyed.length).toBeGreaterThan(0);
    expect(new Set(keyed.map((entry) => entry.tenant))).toEqual(new Set(['/team-b']));
  });

  it('removes the key and changes the address when the user chooses to enter a new key', async () => {
    const a = await provider();
    const b = await provider();
    const { runtime } = await start({ answer: 'forget' });
    await runtime.updateSettings(ownAddress(a.url));
    await runtime.setKey(KEY, false);
    await runtime.updateSettings(ownAddress(b.url));
    expect(savedAddress(runtime.settings.get())).toBe(b.url);
    expect(runtime.vault.status().state).toBe('not_set');
    expect(runtime.credentials.isDemo()).toBe(true);
  });

  it('asks before binding a key pasted while no address was set', async () => {
    const a = await provider();
    const { runtime, asked } = await start({ answer: 'carry' });
    const status = await runtime.setKey(KEY, false);
    expect(status.baseUrl).toBeNull();
    await runtime.updateSettings(ownAddress(a.url));
    expect(asked).toEqual([expect.objectContaining({ from: null })]);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(a)).toBeGreaterThan(0);
  });

  it('asks once when the page sends many changes at once, and queues no second question', async () => {
    const { gateway, runtime, asked, teamA } = await onTeamA();
    const teamB = gateway.url('/team-b');
    const results = await Promise.allSettled([
      runtime.updateSettings(ownAddress(teamB)),
      runtime.updateSettings(ownAddress(teamB)),
      runtime.setKey('sk-page-key', false),
      runtime.updateSettings(ownAddress(teamB)),
    ]);
    // The first change is asked about and refused (cancel); the others would ask again, and are
    // refused without a question in the quiet spell after "keep" (app/key-question-gate.ts); the
    // page's own key is bound to team-a, since the address never changed.
    expect(results.map((result) => result.status)).toEqual([
      'rejected',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    expect(asked).toHaveLength(1);
    expect(savedAddress(runtime.settings.get())).toBe(teamA);
    expect(runtime.vault.status().baseUrl).toBe(teamA);
  });
});

describe('a key stored by an earlier version', () => {
  /**
   * A runtime whose vault record is rewritten as an earlier version left it, in the file it kept
   * it in (`key-vault`), then restarted.
   */
  async function restartedAs(
    baseUrl: string,
    rewrite: (record: Record<string, unknown>) => object,
  ) {
    const dir = await tempFolder('legacy');
    cleanups.push(() => removeFolder(dir));
    const kv = stores(dir);
    const first = await start({ stores: kv });
    await first.runtime.updateSettings(ownAddress(baseUrl));
    await first.runtime.setKey(KEY, false);
    await first.runtime.close();
    const own = kv.vault('pictor');
    const { baseUrl: _bound, ...record } = own.get(KEY_RECORD_NAME) as Record<string, unknown>;
    own.delete(KEY_RECORD_NAME);
    kv.earlier.set(KEY_RECORD_NAME, rewrite(record));
    return { ...(await start({ stores: kv })), kv };
  }

  it('bound to an origin: keeps working for that origin’s base URL, and asks for another path', async () => {
    const gateway = await sharedGateway();
    const teamA = gateway.url('/team-a');
    const { runtime, asked, kv } = await restartedAs(teamA, (record) => ({
      ...record,
      origin: gateway.origin,
    }));
    expect(runtime.vault.status().baseUrl).toBe(teamA);
    expect(kv.vault('pictor').get(KEY_RECORD_NAME)).toMatchObject({ baseUrl: teamA });
    expect(kv.vault('pictor').get(KEY_RECORD_NAME)).not.toHaveProperty('origin');
    expect(kv.earlier.snapshot()).toEqual({});
    expect((await generateOnce(runtime)).status).toBe('completed');
    await expect(runtime.updateSettings(ownAddress(gateway.url('/team-b')))).rejects.toThrow(
      /not changed/,
    );
    expect(asked).toHaveLength(1);
    expect(keyOutsideTeamA(gateway)).toEqual([]);
  });

  it('from before any binding: stays with the address it was being sent to', async () => {
    const a = await provider();
    const { runtime, asked } = await restartedAs(a.url, (record) => record);
    expect(runtime.vault.status().baseUrl).toBe(a.url);
    expect(asked).toEqual([]);
    expect((await generateOnce(runtime)).status).toBe('completed');
    expect(keyedRequests(a)).toBeGreaterThan(0);
  });
});
