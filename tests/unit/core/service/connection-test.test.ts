/**
 * "Test connection" (core/service/connection-test.ts, key-probe-report.ts) in plain Node, with a
 * scripted client: what it asks, of which address, with which key, and the sentence each answer
 * and each failure gets in Settings (never one about tasks). What it says of a stored key is
 * kept with that key; of a key being entered or of the demo's, nothing is kept.
 */
import { describe, expect, it } from 'vitest';
import type { StoredKeyFor } from '../../../../electron/core/service/connection-report';
import {
  testConnection,
  type ConnectionTestDeps,
} from '../../../../electron/core/service/connection-test';
import type { KeyCheck } from '../../../../electron/core/service/key-check';
import {
  ServiceError,
  type ServiceErrorInit,
} from '../../../../electron/core/service/service-error';
import type { ServiceCredentials } from '../../../../electron/ports/credentials';

const KEY: ServiceCredentials = {
  baseUrl: 'https://api.example',
  key: 'sk-x',
  keyFingerprint: 'acct',
};

const DEMO: ServiceCredentials = {
  baseUrl: 'http://127.0.0.1:40111',
  key: 'demo',
  keyFingerprint: 'demo-acct',
};

const ACCEPTED: KeyCheck = { verdict: 'accepted', status: 404 };

function deps(options: {
  /** What the vault has for the address asked about (default: KEY, for its base URL). */
  stored?: StoredKeyFor;
  /** The saved service address (default: https://api.example). */
  saved?: string;
  demo?: ServiceCredentials | null;
  answer: () => Promise<KeyCheck>;
}) {
  const asked: { endpoint?: string; storedFor?: string; credentials?: ServiceCredentials } = {};
  const recorded: [string, string][] = [];
  const test: ConnectionTestDeps = {
    credentials: {
      credentialsFor: async (endpoint) => {
        asked.endpoint = endpoint;
        return options.demo === undefined ? DEMO : options.demo;
      },
      storedKeyFor: async (baseUrl) => {
        asked.storedFor = baseUrl;
        return options.stored ?? { found: 'key', credentials: { ...KEY, baseUrl } };
      },
    },
    client: {
      probeKey: async (credentials) => {
        asked.credentials = credentials;
        return options.answer();
      },
    },
    savedBaseUrl: () => options.saved ?? 'https://api.example',
    recordCheck: (credentials, outcome) => recorded.push([credentials.key, outcome]),
    now: () => 1_000,
  };
  return { test, asked, recorded };
}

const failing = (init: Partial<ServiceErrorInit>) => () =>
  Promise.reject(
    new ServiceError({
      kind: 'network',
      message: 'The task is kept and resumes when the network returns.',
      mayHaveReachedService: false,
      ...init,
    }),
  );

describe('testConnection', () => {
  it('asks the address typed with the key entered for it, and keeps the acceptance with that key', async () => {
    const { test, asked, recorded } = deps({ answer: async () => ACCEPTED });
    expect(await testConnection(test, ' https://api.example ')).toEqual({
      ok: true,
      outcome: 'accepted',
      message: 'The service at api.example answered and accepted the key.',
      sentence: { key: 'error.service.testAccepted', params: { host: 'api.example' } },
    });
    expect(asked).toEqual({ storedFor: 'https://api.example', credentials: KEY });
    expect(recorded).toEqual([['sk-x', 'accepted']]);
  });

  it('tests a base URL quoted with /v1 without it, as Settings saves it', async () => {
    for (const typed of ['https://api.example/v1', 'https://api.example/v1/']) {
      const { test, asked } = deps({ answer: async () => ACCEPTED });
      expect(await testConnection(test, typed)).toMatchObject({ ok: true });
      expect(asked.storedFor).toBe('https://api.example');
      expect(asked.credentials?.baseUrl).toBe('https://api.example');
    }
  });

  it('tests the built-in demo service when no address is typed, and says it needs no key', async () => {
    const { test, asked, recorded } = deps({ answer: async () => ACCEPTED });
    expect(await testConnection(test, '')).toEqual({
      ok: true,
      outcome: 'accepted',
      message:
        'The built-in demo service answers. It needs no key: its pictures are made on this computer and cost nothing.',
      sentence: { key: 'error.service.testDemoNoKey' },
    });
    expect(asked).toMatchObject({ endpoint: 'demo:', credentials: DEMO });
    expect(asked.storedFor).toBeUndefined();
    expect(recorded).toEqual([]);
    const stopped = deps({ demo: null, answer: async () => ACCEPTED });
    expect(await testConnection(stopped.test, '')).toMatchObject({
      ok: false,
      sentence: { key: 'error.service.testDemoNotRunning' },
    });
    expect(stopped.asked.credentials).toBeUndefined();
  });

  it('says a refused key in Settings’ words (which service, what to check) and keeps the refusal', async () => {
    for (const status of [401, 403]) {
      const { test, recorded } = deps({
        answer: async () => ({ verdict: 'refused', status, excerpt: 'invalid key' }),
      });
      expect(await testConnection(test, 'https://api.example')).toEqual({
        ok: false,
        outcome: 'key_refused',
        message: `The service at api.example refused this key (${String(status)}). Check that you copied the whole key and that it belongs to this service.`,
        sentence: {
          key: 'error.service.testKeyRefused',
          params: { host: 'api.example', address: 'https://api.example', status: String(status) },
        },
        detail: `HTTP ${String(status)}; invalid key`,
      });
      expect(recorded).toEqual([['sk-x', 'refused']]);
    }
  });

  it('tests the key being entered, before it is stored, only at the saved address', async () => {
    const { test, asked, recorded } = deps({ answer: async () => ACCEPTED });
    expect(await testConnection(test, 'https://api.example', ' sk-typed-123 ')).toMatchObject({
      ok: true,
      outcome: 'accepted',
    });
    expect(asked.storedFor).toBeUndefined();
    expect(asked.credentials).toMatchObject({
      baseUrl: 'https://api.example',
      key: 'sk-typed-123',
    });
    // A key being entered is not the stored key: nothing is kept of it.
    expect(recorded).toEqual([]);
    // No address: nothing is sent, and the sentence says what to do.
    const none = deps({ answer: async () => ACCEPTED });
    expect(await testConnection(none.test, '', 'sk-typed-123')).toMatchObject({
      ok: false,
      outcome: 'not_tested',
      sentence: { key: 'error.service.testKeyNeedsAddress' },
    });
    expect(none.asked.credentials).toBeUndefined();
    // A key that could not be one is never put in a header.
    const bad = deps({ answer: async () => ACCEPTED });
    expect(await testConnection(bad.test, 'https://api.example', 'sk with space')).toMatchObject({
      outcome: 'not_tested',
      sentence: { key: 'error.settings.keyWhitespace' },
    });
    expect(bad.asked.credentials).toBeUndefined();
    // Another address than the saved one: the entered key goes nowhere, the page is told why.
    const elsewhere = deps({ answer: async () => ACCEPTED });
    expect(
      await testConnection(elsewhere.test, 'https://other.example/v1', 'sk-typed-123'),
    ).toMatchObject({
      outcome: 'not_tested',
      sentence: { key: 'error.service.testKeySaveAddress', params: { host: 'other.example' } },
    });
    expect(elsewhere.asked.credentials).toBeUndefined();
  });

  it('says no key is set for a typed address without one, never testing the demo', async () => {
    const { test, asked } = deps({ stored: { found: 'none' }, answer: async () => ACCEPTED });
    expect(await testConnection(test, 'https://api.example')).toEqual({
      ok: false,
      outcome: 'not_tested',
      message:
        'No API key is set for api.example, so there is nothing to test. Add that service’s API key first.',
      sentence: { key: 'error.service.testNoKey', params: { host: 'api.example' } },
    });
    expect(asked.credentials).toBeUndefined();
    expect(asked.endpoint).toBeUndefined();
  });

  it('says the key belongs to another service instead of testing it there', async () => {
    const other = deps({
      stored: { found: 'other', keyBaseUrl: 'https://home.example:8443' },
      answer: async () => ACCEPTED,
    });
    expect(await testConnection(other.test, 'https://api.example')).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^Your API key was entered for home\.example:8443 and is never sent to another service, so api\.example was not tested\./,
      ),
    });
    expect(other.asked.credentials).toBeUndefined();
    const unbound = deps({
      stored: { found: 'other', keyBaseUrl: null },
      answer: async () => ACCEPTED,
    });
    expect(await testConnection(unbound.test, 'https://api.example')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/before any service address was set/),
    });
    expect(unbound.asked.credentials).toBeUndefined();
  });

  it('refuses an address Settings would refuse, asking nothing', async () => {
    const { test, asked } = deps({ answer: async () => ACCEPTED });
    expect(await testConnection(test, 'http://api.example')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/must start with https:\/\//),
      sentence: { key: 'error.service.serviceUrlPlainHttp' },
    });
    expect(asked).toEqual({});
  });

  it('lets a bug through instead of reporting it as the service’s answer', async () => {
    const { test } = deps({ answer: () => Promise.reject(new TypeError('oops')) });
    await expect(testConnection(test, 'https://api.example')).rejects.toThrow(TypeError);
  });
});

describe('every answer and every failure has its own sentence for Settings', () => {
  const answers: [string, () => Promise<KeyCheck>, string, string][] = [
    [
      'a 404 that is not the service’s',
      async () => ({ verdict: 'not_this_service', status: 404, excerpt: 'Not Found' }),
      'failed',
      'error.service.testNotThisService',
    ],
    [
      'a 200 that is not the service’s',
      async () => ({ verdict: 'not_this_service', status: 200, excerpt: '{}' }),
      'failed',
      'error.service.testNotThisService',
    ],
    [
      'a service that answers without any key',
      async () => ({ verdict: 'keyless', status: 404, excerpt: 'x' }),
      'failed',
      'error.service.testNotThisService',
    ],
    [
      'a web page',
      async () => ({ verdict: 'web_page', status: 200, excerpt: 'Welcome' }),
      'failed',
      'error.service.testWebPage',
    ],
    [
      'a redirect elsewhere',
      async () => ({ verdict: 'redirected', status: 302, to: 'https://login.example' }),
      'failed',
      'error.service.testRedirected',
    ],
    [
      'no credits',
      async () => ({ verdict: 'no_credits', status: 402, excerpt: '' }),
      'accepted',
      'error.service.testNoCredits',
    ],
    [
      '429',
      async () => ({ verdict: 'busy', status: 429, excerpt: '' }),
      'failed',
      'error.service.testBusy',
    ],
    [
      '5xx',
      async () => ({ verdict: 'trouble', status: 503, excerpt: '' }),
      'failed',
      'error.service.testServerTrouble',
    ],
    [
      'a closed port',
      failing({ transport: 'refused' }),
      'unreachable',
      'error.service.testPortClosed',
    ],
    [
      'a name that does not resolve',
      failing({ transport: 'dns' }),
      'unreachable',
      'error.service.testNoSuchHost',
    ],
    [
      'a certificate not trusted',
      failing({ transport: 'tls' }),
      'unreachable',
      'error.service.testInsecure',
    ],
    [
      'another network failure',
      failing({ transport: 'other' }),
      'unreachable',
      'error.service.testUnreachable',
    ],
    [
      'no answer in time',
      failing({ kind: 'timeout' }),
      'unreachable',
      'error.service.testTimedOut',
    ],
    [
      'redirected round and round',
      failing({ kind: 'protocol' }),
      'failed',
      'error.service.testNotThisService',
    ],
  ];

  it.each(answers)('%s', async (_name, answer, outcome, key) => {
    const { test, recorded } = deps({ answer });
    const report = await testConnection(test, 'https://api.example:8443/gw');
    expect(report).toMatchObject({ outcome, sentence: { key } });
    // Written for Settings: the address or the host, never a task that does not exist.
    expect(report.message).toMatch(/api\.example(:8443)?/);
    expect(report.message).not.toMatch(/task|Settings/i);
    expect(recorded).toEqual(outcome === 'accepted' ? [['sk-x', 'accepted']] : []);
  });

  it('names the address a redirect points to, or says another address when it was hidden', async () => {
    const shown = deps({
      answer: async () => ({ verdict: 'redirected', status: 301, to: 'https://evil.example' }),
    });
    expect((await testConnection(shown.test, 'https://api.example')).message).toBe(
      'https://api.example sends requests on to https://evil.example. Pictor sends the key only to the address it was entered for, so it did not follow. If the service has moved, enter its new address.',
    );
    const hidden = deps({ answer: async () => ({ verdict: 'redirected', status: 302, to: null }) });
    expect((await testConnection(hidden.test, 'https://api.example')).message).toMatch(
      /^https:\/\/api\.example sends requests on to another address\./,
    );
  });

  it('names the host that did not resolve without its port', async () => {
    const { test } = deps({ answer: failing({ transport: 'dns' }) });
    expect((await testConnection(test, 'https://api.example:8443')).message).toBe(
      'The name api.example could not be found. Check the address for typing mistakes, and your internet connection.',
    );
  });
});
