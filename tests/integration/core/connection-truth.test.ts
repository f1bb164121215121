/**
 * "Test connection" tells the truth, over real HTTP on loopback, for every service: "accepted"
 * only for the service's own answer to its key probe (each dialect of the demo service, as each
 * real service documents it), never for a web page, a server that answers 404 (or 200) to
 * everything, or one that answers the same without a key; and a sentence of its own, written for
 * Settings, for a closed port, a port fetch never connects to, a name that does not resolve, a
 * certificate not trusted, a redirect elsewhere, 401/403, 429 and 5xx. The same probe is the
 * check Save makes (key-probe-report.ts `probeReport`), so this is what both say.
 */
import type { LookupOptions } from 'node:dns';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import { serviceLabel } from '../../../electron/core/service/key-binding';
import { PROBE_TASK_ID } from '../../../electron/core/service/connection-test';
import { probeReport } from '../../../electron/core/service/key-probe-report';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { startDemoService } from '../../../electron/demo-service/server';
import type { FetchLike } from '../../../electron/ports/http';
import { closedPort, closeServers, sendJson, serve } from '../../support/http-servers';
import { selfSignedCertificate } from '../../support/unsent-servers';

const KEY = 'sk-truth-0123456789abcdef';
const WRONG = 'sk-not-this-account-9876543210';
const NOW = Date.UTC(2026, 10, 25, 11, 0);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await closeServers();
});

const loopbackFetch: FetchLike = (url, init) => fetch(url, init);

/** What the probe of `provider`'s profile says of `key` at `baseUrl`, as Settings shows it. */
function probe(
  provider: ProviderId,
  baseUrl: string,
  key = KEY,
  fetcher = loopbackFetch,
  requestTimeoutMs = 5_000,
) {
  const client = new ServiceClient({ fetch: fetcher, requestTimeoutMs });
  const credentials = { baseUrl, key, keyFingerprint: 'acct', provider };
  const place = { host: serviceLabel(baseUrl), address: baseUrl };
  return probeReport(client, credentials, place, () => NOW);
}

/** A report written for Settings: it names the address or host and never a task. */
function expectSettingsWords(report: { message: string }, where: string): void {
  expect(report.message).toContain(where);
  expect(report.message).not.toMatch(/\btasks?\b|Settings/i);
}

describe.each(PROVIDER_IDS)('%s: its own dialect of the demo service', (provider) => {
  it('accepts the key the service took, refuses the one it did not, and creates nothing', async () => {
    const service = await startDemoService({
      dialect: provider,
      accounts: [{ account: 'alice', key: KEY }],
    });
    cleanups.push(() => service.close());
    expect(await probe(provider, service.url)).toMatchObject({ ok: true, outcome: 'accepted' });
    const wrong = await probe(provider, service.url, WRONG);
    expect(wrong).toMatchObject({
      ok: false,
      outcome: 'key_refused',
      sentence: { key: 'error.service.testKeyRefused' },
    });
    expectSettingsWords(wrong, serviceLabel(service.url));
    expect(service.log.submits).toEqual([]);
    expect(service.tasks()).toEqual([]);
  });
});

describe.each(PROVIDER_IDS)('%s: what is not this service', (provider) => {
  it.each([200, 404])(
    'a web page answers (%i): no service of this kind, a web page there, with the address',
    async (status) => {
      const site = await serve((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html><head><title>Not Found</title></head><body><h1>nginx</h1></body></html>');
      });
      const report = await probe(provider, site.origin);
      expect(report).toMatchObject({
        ok: false,
        outcome: 'failed',
        message: `No image service of this kind answers at ${site.origin}: a web page answers there. Check the address: it is the API address from the service’s documentation, not its website.`,
        sentence: { key: 'error.service.testWebPage', params: { address: site.origin } },
      });
      expectSettingsWords(report, site.origin);
    },
  );

  it.each([
    ['plain text', 'text/plain', 'Not Found'],
    ['the contract’s own shape', 'application/json', '{"error":{"message":"Not found"}}'],
    ['FastAPI’s shape', 'application/json', '{"detail":"Not Found"}'],
    ['an empty body', 'text/plain', ''],
  ])(
    'a server that answers 404 to everything (%s): no service of this kind',
    async (_n, type, body) => {
      const site = await serve((_req, res) => {
        res.writeHead(404, { 'content-type': type });
        res.end(body);
      });
      const report = await probe(provider, site.origin);
      expect(report).toMatchObject({
        ok: false,
        outcome: 'failed',
        message: `No image service of this kind answers at ${site.origin}. Something answered there, but not the way this service does. Check the address: it is the API address from the service’s documentation.`,
        sentence: { key: 'error.service.testNotThisService' },
      });
    },
  );

  it('a server that answers 200 with JSON to everything: no service of this kind', async () => {
    const site = await serve((_req, res) => sendJson(res, 200, { ok: true, data: 'hello' }));
    const report = await probe(provider, site.origin);
    expect(report).toMatchObject({
      outcome: 'failed',
      sentence: { key: 'error.service.testNotThisService' },
    });
  });

  it('a redirect to another address: named, not followed, the key sent nowhere else', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { username: 'a', credits: 1 }));
    const site = await serve((req, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}${req.url ?? '/'}` });
      res.end();
    });
    const report = await probe(provider, site.origin);
    expect(report).toMatchObject({
      outcome: 'failed',
      message: `${site.origin} sends requests on to ${elsewhere.origin}. Pictor sends the key only to the address it was entered for, so it did not follow. If the service has moved, enter its new address.`,
      sentence: { key: 'error.service.testRedirected' },
    });
    expect(elsewhere.requests).toEqual([]);
  });

  it.each([
    [401, 'key_refused', 'error.service.testKeyRefused'],
    [403, 'key_refused', 'error.service.testKeyRefused'],
    [429, 'failed', 'error.service.testBusy'],
    [500, 'failed', 'error.service.testServerTrouble'],
    [502, 'failed', 'error.service.testServerTrouble'],
    [503, 'failed', 'error.service.testServerTrouble'],
  ] as const)('HTTP %i: its own sentence', async (status, outcome, key) => {
    const site = await serve((_req, res) =>
      sendJson(res, status, { error: 'nope' }, status === 429 ? { 'retry-after': '30' } : {}),
    );
    const report = await probe(provider, site.origin);
    expect(report).toMatchObject({
      ok: false,
      outcome,
      sentence: { key, params: { status: String(status) } },
    });
    expectSettingsWords(report, serviceLabel(site.origin));
    expect(report.message).toContain(`(${String(status)})`);
  });

  it('a closed port: nothing answers there', async () => {
    const address = `http://127.0.0.1:${await closedPort()}`;
    const report = await probe(provider, address);
    expect(report).toEqual({
      ok: false,
      outcome: 'unreachable',
      message: `Nothing answers at ${address}: the connection was refused. Check the address and its port, and that the service is running.`,
      sentence: { key: 'error.service.testPortClosed', params: { address } },
      detail: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});

describe('a port fetch never connects to', () => {
  it.each([9, 6000, 6667])('port %i: the port named, nothing sent', async (port) => {
    const address = `http://127.0.0.1:${port}`;
    const report = await probe('pictor', address);
    expect(report).toMatchObject({
      ok: false,
      outcome: 'not_tested',
      sentence: {
        key: 'error.service.blockedPort',
        params: { host: '127.0.0.1', port: String(port) },
      },
    });
    expect(report.message).toContain('Nothing was sent.');
    expect(report.message).not.toMatch(/bad port|fetch failed|Error:/);
  });
});

describe('a service that never answers', () => {
  it('says it did not answer in time, and that the key was not checked', async () => {
    const silent = await serve(() => undefined);
    const report = await probe('pictor', silent.origin, KEY, loopbackFetch, 300);
    expect(report).toMatchObject({
      ok: false,
      outcome: 'unreachable',
      message: `${serviceLabel(silent.origin)} did not answer in time, so the key was not checked. Check the address, or try again later.`,
      sentence: { key: 'error.service.testTimedOut' },
    });
  });
});

describe('a contract service that answers the same with and without a key', () => {
  it('is not taken for one that checked the key', async () => {
    const open = await serve((_req, res) => sendJson(res, 404, { error: { code: 'not_found' } }));
    const report = await probe('pictor', open.origin);
    expect(report).toMatchObject({
      outcome: 'failed',
      sentence: { key: 'error.service.testNotThisService' },
    });
    expect(report.detail).toMatch(/^HTTP 404; Asked without any key, it answered HTTP 404/);
    // The probe with the key, then the same without it.
    expect(open.requests.map((request) => request.url)).toEqual([
      `/v1/tasks/${PROBE_TASK_ID}`,
      `/v1/tasks/${PROBE_TASK_ID}`,
    ]);
    expect(open.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(open.requests[1]?.headers.authorization).toBeUndefined();
  });
});

describe('a name that does not resolve', () => {
  it('says the name was not found (the lookup fails as the resolver fails)', async () => {
    const asked: string[] = [];
    const agent = new Agent({
      connect: {
        lookup: (
          hostname: string,
          _options: LookupOptions,
          callback: (error: Error, address: string, family: number) => void,
        ) => {
          asked.push(hostname);
          const failure = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
            syscall: 'getaddrinfo',
            hostname,
          });
          callback(failure, '', 0);
        },
      },
    });
    cleanups.push(() => agent.close());
    const unresolved: FetchLike = (url, init) =>
      undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;
    for (const provider of PROVIDER_IDS) {
      const report = await probe(provider, 'https://api.pictor-test.invalid:8443', KEY, unresolved);
      expect(report, provider).toEqual({
        ok: false,
        outcome: 'unreachable',
        message:
          'The name api.pictor-test.invalid could not be found. Check the address for typing mistakes, and your internet connection.',
        sentence: {
          key: 'error.service.testNoSuchHost',
          params: { host: 'api.pictor-test.invalid' },
        },
        detail: expect.stringMatching(/ENOTFOUND/),
      });
    }
    expect(new Set(asked)).toEqual(new Set(['api.pictor-test.invalid']));
  });
});

describe('a certificate that is not trusted', () => {
  let server: Server;
  let origin: string;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createHttpsServer(await selfSignedCertificate(), (req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each(PROVIDER_IDS)('%s: no secure connection, and the key was not sent', async (provider) => {
    const report = await probe(provider, origin);
    expect(report).toMatchObject({
      ok: false,
      outcome: 'unreachable',
      sentence: { key: 'error.service.testInsecure', params: { host: serviceLabel(origin) } },
      detail: expect.stringMatching(/SELF_SIGNED|CERT/),
    });
    expectSettingsWords(report, serviceLabel(origin));
    expect(seen).toEqual([]);
  });
});
