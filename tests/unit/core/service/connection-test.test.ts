/** "Test connection" (core/service/connection-test.ts) in plain Node, with a scripted client. */
import { describe, expect, it } from 'vitest';
import {
  PROBE_TASK_ID,
  testConnection,
  type ConnectionTestDeps,
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

function deps(options: {
  demo?: boolean;
  credentials?: ServiceCredentials | null;
  answer: () => Promise<unknown>;
}) {
  const asked: { endpoint?: string; taskId?: string; credentials?: ServiceCredentials } = {};
  const test: ConnectionTestDeps = {
    credentials: {
      isDemo: () => options.demo ?? false,
      currentEndpoint: () => 'https://api.example',
      credentialsFor: async (endpoint) => {
        asked.endpoint = endpoint;
        return options.credentials === undefined ? KEY : options.credentials;
      },
    },
    client: {
      getTask: async (credentials, taskId) => {
        asked.credentials = credentials;
        asked.taskId = taskId;
        return (await options.answer()) as never;
      },
    },
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
  it('asks the current endpoint about the probe id with its key', async () => {
    const { test, asked } = deps({ answer: async () => ({}) });
    expect(await testConnection(test)).toEqual({
      ok: true,
      message: 'The service answered and accepted the key.',
    });
    expect(asked).toEqual({
      endpoint: 'https://api.example',
      credentials: KEY,
      taskId: PROBE_TASK_ID,
    });
  });

  it('counts "no such task" as success, naming the demo service when it is the one', async () => {
    const { test } = deps({ demo: true, answer: refusal({ kind: 'not_found', httpStatus: 404 }) });
    expect(await testConnection(test)).toEqual({
      ok: true,
      message: 'The built-in demo service answered and accepted the key.',
      detail: 'It said it has no task with a test id, as expected.',
    });
  });

  it('reports a refusal with its sentence and the status and detail beside it', async () => {
    const { test } = deps({ answer: refusal({ httpStatus: 401, detail: 'invalid key' }) });
    expect(await testConnection(test)).toEqual({
      ok: false,
      message: 'The service refused the API key.',
      detail: 'HTTP 401 — invalid key',
    });
    const offline = deps({ answer: refusal({ kind: 'network', message: 'No connection.' }) });
    expect(await testConnection(offline.test)).toEqual({
      ok: false,
      message: 'No connection.',
      detail: 'network',
    });
  });

  it('says there is nothing to test without a key, and asks the service nothing', async () => {
    const { test, asked } = deps({ credentials: null, answer: async () => ({}) });
    expect(await testConnection(test)).toMatchObject({ ok: false, message: /Add your API key/ });
    expect(asked.taskId).toBeUndefined();
  });

  it('lets a bug through instead of reporting it as the service’s answer', async () => {
    const { test } = deps({ answer: () => Promise.reject(new TypeError('oops')) });
    await expect(testConnection(test)).rejects.toThrow(TypeError);
  });
});
