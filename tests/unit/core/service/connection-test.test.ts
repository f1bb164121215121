/** "Test connection" (core/service/connection-test.ts) in plain Node, with a scripted client. */
import { describe, expect, it } from 'vitest';
import {
  PROBE_TASK_ID,
  testConnection,
  type ConnectionTestDeps,
  type StoredKeyFor,
} from '../../../../electron/core/service/connection-test';
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

function deps(options: {
  /** What the vault has for the address asked about (default: KEY, for its base URL). */
  stored?: StoredKeyFor;
  /** The saved service address (default: https://api.example). */
  saved?: string;
  demo?: ServiceCredentials | null;
  answer: () => Promise<unknown>;
}) {
  const asked: {
    endpoint?: string;
    storedFor?: string;
    taskId?: string;
    credentials?: ServiceCredentials;
  } = {};
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
      getTask: async (credentials, taskId) => {
        asked.credentials = credentials;
        asked.taskId = typeof taskId === 'string' ? taskId : taskId.taskId;
        return (await options.answer()) as never;
      },
    },
    savedBaseUrl: () => options.saved ?? 'https://api.example',
  };
  return { test, asked };
}

const refusal = (init: Partial<ServiceErrorInit>) => () =>
  Promise.reject(
    new ServiceError({
      kind: 'auth',
      message: 'The service refused the API key.',
      mayHaveReachedService: false,
      ...init,
    }),
  );

describe('testConnection', () => {
  it('asks the address typed about the probe id with the key entered for it', async () => {
    const { test, asked } = deps({ answer: async () => ({}) });
    expect(await testConnection(test, ' https://api.example ')).toEqual({
      ok: true,
      outcome: 'accepted',
      message: 'The service at api.example answered and accepted the key.',
      sentence: { key: 'error.service.testAccepted', params: { host: 'api.example' } },
    });
    expect(asked).toEqual({
      storedFor: 'https://api.example',
      credentials: KEY,
      taskId: PROBE_TASK_ID,
    });
  });

  it('tests a base URL quoted with /v1 without it, as Settings saves it', async () => {
    for (const typed of ['https://api.example/v1', 'https://api.example/v1/']) {
      const { test, asked } = deps({ answer: async () => ({}) });
      expect(await testConnection(test, typed)).toMatchObject({ ok: true });
      expect(asked.storedFor).toBe('https://api.example');
      expect(asked.credentials?.baseUrl).toBe('https://api.example');
    }
  });

  it('tests the built-in demo service when no address is typed, and says so', async () => {
    const { test, asked } = deps({ answer: refusal({ kind: 'not_found', httpStatus: 404 }) });
    expect(await testConnection(test, '')).toEqual({
      ok: true,
      outcome: 'accepted',
      message: 'The built-in demo service answered and accepted the key.',
      sentence: { key: 'error.service.testDemoAccepted' },
      detail: 'It said it has no task with a test id, as expected.',
    });
    expect(asked).toMatchObject({ endpoint: 'demo:', credentials: DEMO });
    expect(asked.storedFor).toBeUndefined();
    const stopped = deps({ demo: null, answer: async () => ({}) });
    expect(await testConnection(stopped.test, '')).toMatchObject({ ok: false });
    expect(stopped.asked.taskId).toBeUndefined();
  });

  it('says a refused key in Settings’ words (which service, what to check), the status beside it', async () => {
    for (const status of [401, 403]) {
      const { test } = deps({ answer: refusal({ httpStatus: status, detail: 'invalid key' }) });
      expect(await testConnection(test, 'https://api.example')).toEqual({
        ok: false,
        outcome: 'key_refused',
        message: `The service at api.example refused this key (${String(status)}). Check that you copied the whole key and that it belongs to this service.`,
        sentence: {
          key: 'error.service.testKeyRefused',
          params: { host: 'api.example', status: String(status) },
        },
        detail: `HTTP ${String(status)} — invalid key`,
      });
    }
    const offline = deps({ answer: refusal({ kind: 'network', message: 'No connection.' }) });
    expect(await testConnection(offline.test, 'https://api.example')).toEqual({
      ok: false,
      outcome: 'unreachable',
      message: 'No connection.',
      detail: 'network',
    });
    const broken = deps({
      answer: refusal({ kind: 'server', httpStatus: 502, message: 'Bad gateway.' }),
    });
    expect(await testConnection(broken.test, 'https://api.example')).toMatchObject({
      outcome: 'failed',
    });
  });

  it('tests the key being entered, before it is stored, only at the typed address', async () => {
    const { test, asked } = deps({ answer: async () => ({}) });
    expect(await testConnection(test, 'https://api.example', ' sk-typed-123 ')).toMatchObject({
      ok: true,
      outcome: 'accepted',
    });
    expect(asked.storedFor).toBeUndefined();
    expect(asked.credentials).toMatchObject({
      baseUrl: 'https://api.example',
      key: 'sk-typed-123',
    });
    // No address: nothing is sent, and the sentence says what to do.
    const none = deps({ answer: async () => ({}) });
    expect(await testConnection(none.test, '', 'sk-typed-123')).toMatchObject({
      ok: false,
      outcome: 'not_tested',
      sentence: { key: 'error.service.testKeyNeedsAddress' },
    });
    expect(none.asked.taskId).toBeUndefined();
    // A key that could not be one is never put in a header.
    const bad = deps({ answer: async () => ({}) });
    expect(await testConnection(bad.test, 'https://api.example', 'sk with space')).toMatchObject({
      outcome: 'not_tested',
      sentence: { key: 'error.settings.keyWhitespace' },
    });
    expect(bad.asked.taskId).toBeUndefined();
    // Another address than the saved one: the entered key goes nowhere, the page is told why.
    const elsewhere = deps({ answer: async () => ({}) });
    expect(
      await testConnection(elsewhere.test, 'https://other.example/v1', 'sk-typed-123'),
    ).toMatchObject({
      outcome: 'not_tested',
      sentence: { key: 'error.service.testKeySaveAddress', params: { host: 'other.example' } },
    });
    expect(elsewhere.asked.taskId).toBeUndefined();
  });

  it('says no key is set for a typed address without one, never testing the demo', async () => {
    const { test, asked } = deps({ stored: { found: 'none' }, answer: async () => ({}) });
    expect(await testConnection(test, 'https://api.example')).toEqual({
      ok: false,
      outcome: 'not_tested',
      message:
        'No API key is set for api.example, so there is nothing to test. Add that service’s API key first.',
      sentence: { key: 'error.service.testNoKey', params: { host: 'api.example' } },
    });
    expect(asked.taskId).toBeUndefined();
    expect(asked.endpoint).toBeUndefined();
  });

  it('says the key belongs to another service instead of testing it there', async () => {
    const other = deps({
      stored: { found: 'other', keyBaseUrl: 'https://home.example:8443' },
      answer: async () => ({}),
    });
    expect(await testConnection(other.test, 'https://api.example')).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^Your API key was entered for home\.example:8443 and is never sent to another service, so api\.example was not tested\./,
      ),
    });
    expect(other.asked.taskId).toBeUndefined();
    const unbound = deps({
      stored: { found: 'other', keyBaseUrl: null },
      answer: async () => ({}),
    });
    expect(await testConnection(unbound.test, 'https://api.example')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/before any service address was set/),
    });
    expect(unbound.asked.taskId).toBeUndefined();
  });

  it('refuses an address Settings would refuse, asking nothing', async () => {
    const { test, asked } = deps({ answer: async () => ({}) });
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
