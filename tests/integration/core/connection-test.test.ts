/**
 * "Test connection" over real HTTP on loopback: it tests the address typed (saved or not,
 * `/v1` removed as Settings removes it) with the key entered for its origin, and asks nothing of
 * an address without a key or of another origin than the key's. Real runtime, real demo services
 * as two providers, every request they saw checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PROBE_TASK_ID, testConnection } from '../../../electron/core/service/connection-test';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { startTestRuntime } from '../../support/app-runtime';
import { closedPort } from '../../support/http-servers';
import { ownAddress, savedAddress } from '../../support/own-address';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-provider-a-0123456789abcdef';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function provider(): Promise<DemoService> {
  const service = await startDemoService({ accounts: [{ account: 'a', key: KEY }] });
  cleanups.push(() => service.close());
  return service;
}

async function start() {
  const dir = await tempFolder('connection');
  cleanups.push(() => removeFolder(dir));
  const runtime = await startTestRuntime(dir);
  cleanups.push(() => runtime.close());
  const test = (typed: string, entered?: string) =>
    testConnection(
      {
        credentials: runtime.credentials,
        client: runtime.core.client,
        savedBaseUrl: () => savedAddress(runtime.settings.get()),
        recordCheck: (credentials, outcome) => runtime.recordKeyCheck(credentials, outcome),
      },
      typed,
      entered,
    );
  return { runtime, test };
}

describe('Test connection against real services', () => {
  it('tests the typed address without /v1, with its own key, and nothing else', async () => {
    const [service, other] = [await provider(), await provider()];
    const { runtime, test } = await start();

    // A URL typed, no key: no green tick for the demo service, no request anywhere.
    expect(await test(`${service.url}/v1`)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^No API key is set for 127\.0\.0\.1:\d+/),
    });
    expect(service.log.polls).toEqual([]);

    await runtime.updateSettings(ownAddress(`${service.url}/v1/`));
    expect(savedAddress(runtime.settings.get())).toBe(service.url);
    await runtime.setKey(KEY, false);
    expect(await test(`${service.url}/v1`)).toEqual({
      ok: true,
      outcome: 'accepted',
      message: expect.stringMatching(/^The service at 127\.0\.0\.1:\d+ answered and accepted/),
      sentence: {
        key: 'error.service.testAccepted',
        params: { host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
      },
    });
    // Its "no such task", then the same question without the key, which it refused.
    const probe = `/v1/tasks/${PROBE_TASK_ID}`;
    expect(service.log.polls.map((entry) => entry.path)).toEqual([probe, probe]);
    expect(service.log.polls[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(service.log.polls[1]?.headers.authorization).toBeUndefined();
    // What it said is kept with the key: the tick in Settings.
    expect(runtime.vault.status().check).toEqual({ outcome: 'accepted', at: expect.any(Number) });

    // Another origin typed (another port): the key stays home and the user is told why.
    expect(await test(other.url)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/is never sent to another service/),
    });
    expect(other.log.polls).toEqual([]);
    expect(other.log.submits).toEqual([]);
  });

  it('checks a key being entered with the service before it is stored: taken, refused, unreachable', async () => {
    const service = await provider();
    const { runtime, test } = await start();
    // Typed but not saved: the entered key goes nowhere yet.
    expect(await test(service.url, KEY)).toMatchObject({ outcome: 'not_tested' });
    expect(service.log.polls).toEqual([]);
    await runtime.updateSettings(ownAddress(service.url));
    expect(await test(service.url, KEY)).toMatchObject({ ok: true, outcome: 'accepted' });
    expect(service.log.polls.at(-2)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(service.log.polls.at(-1)?.headers.authorization).toBeUndefined();
    const wrong = await test(service.url, 'sk-not-this-service-0123456789');
    expect(wrong).toMatchObject({
      ok: false,
      outcome: 'key_refused',
      message: expect.stringMatching(/^The service at 127\.0\.0\.1:\d+ refused this key \(401\)\./),
    });
    expect(wrong.message).not.toMatch(/Settings|task/);
    const port = await closedPort();
    await runtime.updateSettings(ownAddress(`http://127.0.0.1:${port}`));
    expect(await test(`http://127.0.0.1:${port}`, KEY)).toMatchObject({ outcome: 'unreachable' });
    // Nothing was stored by testing.
    expect((await runtime.vault.status()).state).toBe('not_set');
  });
});
