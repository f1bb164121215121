import { describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import type { Responder } from './fake-fetch';
import { caught, fail, fakeFetch, json, undiciError } from './fake-fetch';
import { UNTIL } from '../../../support/waits';

const credentials = {
  baseUrl: 'https://api.example.com',
  key: 'sk-test-0123456789',
  keyFingerprint: 'acct',
};

function service(responder: Responder, requestTimeoutMs = 5_000) {
  const fake = fakeFetch(responder);
  return { client: new ServiceClient({ fetch: fake.fetch, requestTimeoutMs }), calls: fake.calls };
}

async function failure(
  responder: Responder,
  op: 'submit' | 'query',
  requestTimeoutMs?: number,
): Promise<ServiceError> {
  const { client } = service(responder, requestTimeoutMs);
  const error = await caught(
    op === 'submit'
      ? client.submit(credentials, { prompt: 'p' })
      : client.getTask(credentials, 't'),
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

const NOTHING_SENT =
  'Pictor could not reach the service, so nothing was sent. Check your internet connection and the service URL, then try again.';
const QUERY_OFFLINE =
  'Pictor could not reach the service. Check your internet connection; the task is kept and resumes when the network returns.';

/** The failures whose cause has its own sentence, naming the host. */
const SAID_FOR: Readonly<Record<string, string>> = {
  ECONNREFUSED:
    'Nothing answers at api.example.com: the connection was refused, so nothing was sent. Check the service URL and its port, and that the service is running.',
  ERR_CONNECTION_REFUSED:
    'Nothing answers at api.example.com: the connection was refused, so nothing was sent. Check the service URL and its port, and that the service is running.',
  ENOTFOUND:
    'The name api.example.com could not be found, so nothing was sent. Check the service URL for typing mistakes, and your internet connection.',
  EAI_AGAIN:
    'The name api.example.com could not be found, so nothing was sent. Check the service URL for typing mistakes, and your internet connection.',
  ERR_NAME_NOT_RESOLVED:
    'The name api.example.com could not be found, so nothing was sent. Check the service URL for typing mistakes, and your internet connection.',
};

describe('transport failures before an answer', () => {
  it.each<[string, unknown]>([
    ['ECONNREFUSED', undiciError('ECONNREFUSED', 'connect')],
    ['ENOTFOUND', undiciError('ENOTFOUND', 'getaddrinfo')],
    ['EAI_AGAIN', undiciError('EAI_AGAIN')],
    ['ENETUNREACH', undiciError('ENETUNREACH')],
    ['EHOSTUNREACH', undiciError('EHOSTUNREACH')],
    ['ENETDOWN', undiciError('ENETDOWN')],
    ['UND_ERR_CONNECT_TIMEOUT', undiciError('UND_ERR_CONNECT_TIMEOUT')],
    ['ETIMEDOUT', undiciError('ETIMEDOUT', 'connect')],
    [
      'ECONNREFUSED',
      new TypeError('fetch failed', {
        cause: Object.assign(
          new AggregateError([undiciError('ECONNREFUSED', 'connect').cause, new Error('x')]),
          {},
        ),
      }),
    ],
    ['ERR_CONNECTION_REFUSED', new Error('net::ERR_CONNECTION_REFUSED')],
    [
      'ERR_NAME_NOT_RESOLVED',
      new TypeError('Failed to fetch', { cause: new Error('net::ERR_NAME_NOT_RESOLVED') }),
    ],
    ['ERR_INTERNET_DISCONNECTED', new Error('net::ERR_INTERNET_DISCONNECTED')],
  ])('%s: not reached, nothing sent', async (code, error) => {
    const submit = await failure(fail(error), 'submit');
    expect(submit).toMatchObject({ kind: 'network', mayHaveReachedService: false });
    expect(submit.message).toContain('so nothing was sent');
    expect(submit.message).toBe(SAID_FOR[code] ?? NOTHING_SENT);
    // The code alone: no library words ("fetch failed", "getaddrinfo …").
    expect(submit.detail).toBe(code);
    const query = await failure(fail(error), 'query');
    expect(query).toMatchObject({
      kind: 'network',
      mayHaveReachedService: false,
      message: QUERY_OFFLINE,
    });
  });

  it.each([
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'SELF_SIGNED_CERT_IN_CHAIN',
  ])('%s: a certificate problem, nothing sent', async (code) => {
    const error = await failure(fail(undiciError(code)), 'submit');
    expect(error).toMatchObject({ kind: 'network', mayHaveReachedService: false });
    expect(error.message).toContain('certificate was not accepted');
    expect(error.message).toContain('nothing was sent');
    expect(error.detail).toBe(code);
  });

  it('recognises a Chromium certificate error', async () => {
    const error = await failure(fail(new Error('net::ERR_CERT_AUTHORITY_INVALID')), 'query');
    expect(error).toMatchObject({ kind: 'network', mayHaveReachedService: false });
    expect(error.message).toContain('certificate');
  });

  it.each<[string, unknown]>([
    ['ECONNRESET', undiciError('ECONNRESET', 'read')],
    ['UND_ERR_SOCKET', undiciError('UND_ERR_SOCKET', undefined, 'other side closed')],
    ['ETIMEDOUT', undiciError('ETIMEDOUT', 'read')],
    ['EPIPE', undiciError('EPIPE', 'write')],
    ['E_SOMETHING_NEW', undiciError('E_SOMETHING_NEW')],
    ['other side closed', new TypeError('fetch failed', { cause: new Error('other side closed') })],
    ['ERR_CONNECTION_RESET', new Error('net::ERR_CONNECTION_RESET')],
    ['boom', new Error('boom')],
    ['a string', 'a string'],
    ['no error code', null],
    ['no error code', { weird: true }],
  ])('%s: may have reached the service', async (detail, error) => {
    const submit = await failure(fail(error), 'submit');
    expect(submit).toMatchObject({ kind: 'network', mayHaveReachedService: true });
    expect(submit.message).toContain('cannot tell whether the task was created');
    expect(submit.detail).toContain(detail);
    const query = await failure(fail(error), 'query');
    expect(query).toMatchObject({
      kind: 'network',
      mayHaveReachedService: true,
      message: QUERY_OFFLINE,
    });
  });

  it('turns a fetch that throws synchronously into a network error', async () => {
    const client = new ServiceClient({
      fetch: () => {
        throw new TypeError('Invalid header value');
      },
    });
    const error = await caught(client.getTask(credentials, 't'));
    expect(error).toMatchObject({ kind: 'network' });
  });
});

/** A fetch that never answers and ignores its signal, like a stuck transport. */
const stuck: Responder = () => new Promise<Response>(() => undefined);

/** Headers arrive, then the body stalls forever. */
const stalledBody: Responder = () =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":'));
      },
    }),
    { status: 200 },
  );

describe('a transport that misbehaves', () => {
  it('a fetch resolving to something that is not a Response is an error, not a crash', async () => {
    const client = new ServiceClient({ fetch: async () => undefined as unknown as Response });
    const error = await caught(client.submit(credentials, { prompt: 'p' }));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'protocol', mayHaveReachedService: true });
  });

  it('a fetch answering after an abort has its answer dropped quietly', async () => {
    let answerLate: ((response: Response) => void) | undefined;
    const client = new ServiceClient({
      fetch: () => new Promise<Response>((resolve) => (answerLate = resolve)),
    });
    const controller = new AbortController();
    const pending = client.getTask(credentials, 't', controller.signal);
    await vi.waitFor(() => expect(answerLate).toBeDefined(), UNTIL);
    controller.abort('stop');
    expect(await caught(pending)).toBe('stop');
    const late = new Response('{"status":"processing"}');
    answerLate!(late);
    await vi.waitFor(() => expect(late.bodyUsed || late.body?.locked).toBeTruthy(), UNTIL);
  });
});

describe('time limits and aborts', () => {
  it('times out a fetch that never answers, even if it ignores the signal', async () => {
    const error = await failure(stuck, 'submit', 50);
    expect(error).toMatchObject({ kind: 'timeout', mayHaveReachedService: true });
    expect(error.message).toBe(
      'The service did not answer within 50 ms. The task may have been created; Pictor does not send it again on its own.',
    );
  });

  it('times out a body that stalls', async () => {
    const error = await failure(stalledBody, 'query', 50);
    expect(error).toMatchObject({ kind: 'timeout', mayHaveReachedService: true });
  });

  it("rethrows the caller's abort reason unchanged, whatever stage it hits", async () => {
    for (const responder of [stuck, stalledBody]) {
      const { client } = service(responder);
      const controller = new AbortController();
      const reason = new Error('shutting down');
      const pending = client.submit(credentials, { prompt: 'p' }, controller.signal);
      setTimeout(() => controller.abort(reason), 10);
      expect(await caught(pending)).toBe(reason);
    }
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { client, calls } = service(json(200, { id: 't' }));
    const reason = { why: 'closed' };
    expect(await caught(client.getTask(credentials, 't', AbortSignal.abort(reason)))).toBe(reason);
    expect(calls).toHaveLength(0);
  });

  it('passes one signal to fetch that fires on the caller abort', async () => {
    let seen: AbortSignal | undefined;
    const client = new ServiceClient({
      fetch: (_url, init) => {
        seen = init?.signal ?? undefined;
        return new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        );
      },
    });
    const controller = new AbortController();
    const pending = client.getTask(credentials, 't', controller.signal);
    await vi.waitFor(() => expect(seen).toBeDefined(), UNTIL);
    controller.abort('bye');
    expect(await caught(pending)).toBe('bye');
    expect(seen?.aborted).toBe(true);
  });

  it('rejects bad options', () => {
    const fetch = json(200, {}) as never;
    expect(() => new ServiceClient({ fetch, requestTimeoutMs: -1 })).toThrow(RangeError);
    expect(() => new ServiceClient({ fetch, maxRedirects: Number.NaN })).toThrow(RangeError);
  });
});
