/**
 * "Test connection" for every service besides today's contract, over real HTTP on loopback: the
 * demo service speaks each provider's dialect, and each profile's key probe (Replicate's account,
 * BFL's credits, DashScope's task list, the status of a request fal has never seen) says the key
 * was taken, refused, the service not reached, or that the address answers as another service
 * would. No probe creates a task; the stored key goes only to the service's address, in its
 * header.
 * A hostile service may redirect the probe elsewhere or echo the key: nothing reaches another
 * origin, and the report never shows the key. The last case goes through the real runtime: the
 * key stored for a service, bound to its address.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../shared/domain/providers';
import {
  testServiceConnection,
  type ServiceTestDeps,
} from '../../../electron/core/service/service-connection-test';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { startTestRuntime } from '../../support/app-runtime';
import { closedPort, closeServers, sendJson, serve } from '../../support/http-servers';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The services with an address of their own (the user's own is tested below, once saved). */
type OtherService = Exclude<ProviderId, 'pictor'>;

const KEY = 'sk-probe-0123456789abcdef';
/** When a test's balance was read (the clock the deps give). */
const READ_AT = Date.UTC(2026, 10, 25, 11, 0);
const WRONG = 'sk-not-this-account-9876543210';
const SERVICES: readonly OtherService[] = ['fal', 'replicate', 'dashscope', 'bfl', 'comfyui'];
/** Where each dialect's probe goes, and the header that carries the key there. */
const PROBES: Readonly<Record<OtherService, { path: RegExp; header: string; value: string }>> = {
  fal: {
    path: /^\/fal-ai\/flux\/requests\/[0-9a-f-]{36}\/status$/,
    header: 'authorization',
    value: `Key ${KEY}`,
  },
  replicate: { path: /^\/v1\/account$/, header: 'authorization', value: `Bearer ${KEY}` },
  dashscope: {
    path: /^\/api\/v1\/tasks\/\?page_no=1&page_size=1$/,
    header: 'authorization',
    value: `Bearer ${KEY}`,
  },
  bfl: { path: /^\/v1\/credits$/, header: 'x-key', value: KEY },
  // A proxied ComfyUI: its queue, read only, with the proxy's Bearer key.
  comfyui: { path: /^\/queue$/, header: 'authorization', value: `Bearer ${KEY}` },
};

/** A service whose answer to the probe is not the probed service's (fal's: a 404 without detail). */
const OTHER: Readonly<Record<OtherService, OtherService>> = {
  fal: 'dashscope',
  replicate: 'bfl',
  dashscope: 'bfl',
  bfl: 'replicate',
  comfyui: 'bfl',
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeServers();
});

async function demo(dialect: OtherService, credits?: number): Promise<DemoService> {
  const service = await startDemoService({
    dialect,
    accounts: [{ account: 'alice', key: KEY, ...(credits === undefined ? {} : { credits }) }],
  });
  cleanups.push(() => service.close());
  return service;
}

/** The deps of a test at `baseUrl` with `stored` as the service's stored key for that address. */
function deps(baseUrl: string, provider: ProviderId, stored: string | null): ServiceTestDeps {
  return {
    keys: {
      storedKeyOf: async (asked, at) =>
        stored === null || asked !== provider || at !== baseUrl
          ? { found: 'none' }
          : { found: 'key', credentials: { baseUrl, key: stored, keyFingerprint: 'f', provider } },
    },
    client: new ServiceClient({ fetch: (url, init) => fetch(url, init) }),
    addressOf: (asked) => (asked === provider ? baseUrl : null),
    now: () => READ_AT,
  };
}

describe.each(SERVICES)('Test connection for %s', (provider) => {
  it('says the key was taken, asking only the probe, creating nothing', async () => {
    const service = await demo(provider, 7);
    const report = await testServiceConnection(deps(service.url, provider, KEY), provider);
    expect(report).toMatchObject({
      ok: true,
      outcome: 'accepted',
      message: expect.stringMatching(
        /^The service at 127\.0\.0\.1:\d+ answered and accepted the key\.$/,
      ),
      sentence: { key: 'error.service.testAccepted' },
    });
    if (provider === 'bfl') {
      expect(report.detail).toBe('Credits: 7');
      expect(report.balance).toEqual({ micros: 7_000_000, unit: 'credits', readAt: READ_AT });
    } else expect(report.balance).toBeUndefined();
    if (provider === 'replicate') expect(report.detail).toBe('Account: alice');
    const { requests, submits } = service.log;
    expect(submits).toEqual([]);
    expect(service.tasks()).toEqual([]);
    // fal's answer is a "no such request", which any server can give: the same question goes
    // again without the key, and fal refuses it.
    expect(requests).toHaveLength(provider === 'fal' ? 2 : 1);
    if (provider === 'fal') {
      expect(requests[1]?.path).toBe(requests[0]?.path);
      expect(requests[1]?.headers[PROBES.fal.header]).toBeUndefined();
    }
    const { path, headers } = requests[0]!;
    expect(path).toMatch(PROBES[provider].path);
    expect(headers[PROBES[provider].header]).toBe(PROBES[provider].value);
    const elsewhere = Object.entries(headers).filter(
      ([name, value]) => name !== PROBES[provider].header && value.includes(KEY),
    );
    expect(elsewhere).toEqual([]);
  });

  it('says when the service refuses the stored key', async () => {
    const service = await demo(provider);
    const wrong = await testServiceConnection(deps(service.url, provider, WRONG), provider);
    expect(wrong).toMatchObject({
      ok: false,
      outcome: 'key_refused',
      message: expect.stringMatching(
        /^The service at 127\.0\.0\.1:\d+ refused this key \((401|403)\)\. Check that you copied/,
      ),
      detail: expect.stringMatching(/^HTTP (401|403)/),
    });
    expect(service.log.submits).toEqual([]);
  });

  it('says when no key is set, when the service is not reached, and when it answers as another', async () => {
    const service = await demo(provider);
    expect(await testServiceConnection(deps(service.url, provider, null), provider)).toMatchObject({
      outcome: 'not_tested',
      sentence: { key: 'error.service.testNoKey' },
    });
    expect(service.log.requests).toEqual([]);

    const port = await closedPort();
    const away = `http://127.0.0.1:${port}`;
    expect(await testServiceConnection(deps(away, provider, KEY), provider)).toMatchObject({
      ok: false,
      outcome: 'unreachable',
      message: `Nothing answers at ${away}: the connection was refused. Check the address and its port, and that the service is running.`,
    });

    // Another service's demo at this address: its answer is not this service's to a key check.
    const other = await demo(OTHER[provider]);
    const mixed = await testServiceConnection(deps(other.url, provider, KEY), provider);
    expect(mixed).toMatchObject({
      ok: false,
      outcome: 'failed',
      sentence: { key: 'error.service.testNotThisService' },
    });
    expect(mixed.message).toBe(
      `No image service of this kind answers at ${other.url}. Something answered there, but not the way this service does. Check the address: it is the API address from the service’s documentation.`,
    );
    expect(other.log.submits).toEqual([]);
  });
});

describe.each(SERVICES)('Test connection of a key being entered for %s', (provider) => {
  it('asks the saved address about the typed key, keeping nothing of the answer', async () => {
    const service = await demo(provider);
    const recorded: string[] = [];
    const base = deps(service.url, provider, WRONG);
    const withRecorder = {
      ...base,
      recordCheck: (_: unknown, outcome: string) => void recorded.push(outcome),
    };
    const report = await testServiceConnection(withRecorder, provider, ` ${KEY} `);
    expect(report).toMatchObject({ ok: true, outcome: 'accepted' });
    // The typed key went, trimmed, in the service's own header: the stored one (WRONG) did not.
    const { headers } = service.log.requests[0]!;
    expect(headers[PROBES[provider].header]).toBe(PROBES[provider].value);
    expect(JSON.stringify(service.log.requests)).not.toContain(WRONG);
    expect(service.log.submits).toEqual([]);
    // A key not stored: what the service said of it is not kept with the stored one.
    expect(recorded).toEqual([]);

    const refused = await testServiceConnection(withRecorder, provider, WRONG);
    expect(refused).toMatchObject({ ok: false, outcome: 'key_refused' });
    expect(recorded).toEqual([]);
  });

  it('refuses a key that cannot be one, and a service with no saved address, sending nothing', async () => {
    const service = await demo(provider);
    for (const bad of ['', 'Bearer abc', 'two words', 'clé-non-ascii']) {
      const report = await testServiceConnection(deps(service.url, provider, null), provider, bad);
      expect(report, bad).toMatchObject({ ok: false, outcome: 'not_tested' });
      expect(JSON.stringify(report)).not.toContain(bad === '' ? '\u0000' : bad);
    }
    const nowhere = { ...deps(service.url, provider, null), addressOf: () => null };
    expect(await testServiceConnection(nowhere, provider, KEY)).toMatchObject({
      outcome: 'not_tested',
      sentence: { key: 'error.service.serviceUrlInvalid' },
    });
    expect(service.log.requests).toEqual([]);
  });
});

describe('Test connection of the user’s own service at its saved address', () => {
  it('asks its probe like any other service’s, with the stored key or the one being entered', async () => {
    const service = await startDemoService({ accounts: [{ account: 'alice', key: KEY }] });
    cleanups.push(() => service.close());
    const stored = await testServiceConnection(deps(service.url, 'pictor', KEY), 'pictor');
    expect(stored).toMatchObject({ ok: true, outcome: 'accepted' });
    const entered = await testServiceConnection(deps(service.url, 'pictor', null), 'pictor', WRONG);
    expect(entered).toMatchObject({ ok: false, outcome: 'key_refused' });
    expect(service.log.submits).toEqual([]);
    expect(service.tasks()).toEqual([]);
    const requestsBefore = service.log.requests.length;
    // No address saved: nothing is asked anywhere.
    const none = await testServiceConnection(
      { ...deps(service.url, 'pictor', KEY), addressOf: () => null },
      'pictor',
    );
    expect(none).toMatchObject({ ok: false, outcome: 'not_tested' });
    // Only the probe was asked, and only while there was an address: nothing after.
    const asked = service.log.requests.map((request) => request.path);
    expect(new Set(asked).size).toBe(1);
    expect(asked).toHaveLength(requestsBefore);
  });
});

describe('Test connection against a hostile service', () => {
  it.each(SERVICES)(
    '%s: a probe redirected to another origin carries the key nowhere',
    async (provider) => {
      const attacker = await serve((_req, res) =>
        sendJson(res, 200, { username: 'a', credits: 1 }),
      );
      for (const status of [302, 307, 308]) {
        const saved = await serve((req, res) => {
          res.writeHead(status, { location: `${attacker.origin}${req.url ?? '/'}` });
          res.end();
        });
        const report = await testServiceConnection(deps(saved.origin, provider, KEY), provider);
        expect(report, String(status)).toMatchObject({
          ok: false,
          outcome: 'failed',
          sentence: {
            key: 'error.service.testRedirected',
            params: { address: saved.origin, target: attacker.origin },
          },
        });
        expect(report.detail).toContain(attacker.origin);
        expect(saved.requests).toHaveLength(1);
      }
      expect(attacker.requests).toEqual([]);
      expect(attacker.connections()).toBe(0);
    },
  );

  it.each([-5, 1e12, 0.1234567])(
    'keeps no balance from credits of %s (the key check still says the key was taken)',
    async (credits) => {
      const bfl = await serve((_req, res) => sendJson(res, 200, { credits }));
      const report = await testServiceConnection(deps(bfl.origin, 'bfl', KEY), 'bfl');
      expect(report).toMatchObject({ ok: true, outcome: 'accepted' });
      if (credits === 0.1234567) {
        expect(report.balance).toEqual({ micros: 123_457, unit: 'credits', readAt: READ_AT });
      } else expect(report.balance).toBeUndefined();
    },
  );

  it('never shows the key a probe’s answer echoes back', async () => {
    const echo = await serve((_req, res) =>
      sendJson(res, 200, { username: `owner ${KEY} ${'x'.repeat(30)}` }),
    );
    const report = await testServiceConnection(deps(echo.origin, 'replicate', KEY), 'replicate');
    expect(report).toMatchObject({ ok: true, outcome: 'accepted' });
    expect(report.detail).toMatch(/^Account: owner /);
    expect(JSON.stringify(report)).not.toContain(KEY);
    expect(echo.requests.map((request) => request.url)).toEqual(['/v1/account']);
  });
});

describe('Test connection through the runtime', () => {
  it('tests the key stored for a service at that service’s saved address', async () => {
    const service = await demo('bfl');
    const dir = await tempFolder('service-test');
    cleanups.push(() => removeFolder(dir));
    const runtime = await startTestRuntime(dir);
    cleanups.push(() => runtime.close());
    const test = (provider: OtherService) =>
      testServiceConnection(
        {
          keys: runtime.credentials,
          client: runtime.core.client,
          addressOf: (asked) => runtime.credentials.addressOf(asked),
          now: () => READ_AT,
        },
        provider,
      );
    await runtime.updateSettings({ serviceBaseUrls: { bfl: service.url } });
    expect(await test('bfl')).toMatchObject({ outcome: 'not_tested' });
    await runtime.setKey(KEY, false, 'bfl');
    expect(await test('bfl')).toMatchObject({
      ok: true,
      outcome: 'accepted',
      detail: 'Credits: 1000',
    });
    expect(service.log.requests.map((entry) => entry.path)).toEqual(['/v1/credits']);
    // Another service's key is its own: fal has none.
    expect(await test('fal')).toMatchObject({
      outcome: 'not_tested',
      sentence: { key: 'error.service.testNoKey', params: { host: 'queue.fal.run' } },
    });
  });
});
