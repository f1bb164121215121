/** What never leaves: the key to a wrong place, a task id out of its path, the key into an error's text. */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { caught, fakeFetch, json } from './fake-fetch';
import type { Handler } from '../../../support/http-servers';
import { sendJson, closeServers, serve } from '../../../support/http-servers';

const KEY = 'sk-live-SECRET-abcdef123456';
afterEach(closeServers);

const realClient = () => new ServiceClient({ fetch: (url, init) => fetch(url, init) });

async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('task ids stay under /v1/tasks/', () => {
  it.each(['a/b', '%2F', 'a?b', 'a#b', 'x..%2Fy', 'a\\b', '.%2e.'])(
    '%j is sent encoded as one path segment',
    async (id) => {
      const server = await serve((_req, res) => sendJson(res, 200, { status: 'processing' }));
      await realClient().getTask({ baseUrl: server.origin, key: KEY, keyFingerprint: 'a' }, id);
      expect(server.requests).toHaveLength(1);
      const path = server.requests[0]!.url;
      expect(path.startsWith('/v1/tasks/')).toBe(true);
      const segment = path.slice('/v1/tasks/'.length);
      expect(segment).not.toMatch(/[/?#]/);
      expect(decodeURIComponent(segment)).toBe(id);
    },
  );

  // A gateway that decodes %2F (or %5C) before routing would read these as steps out of the path.
  it.each([
    ...['a\u0000b', 'x'.repeat(300), 'a b', 'a\tb', '', '   ', '.', '..'],
    ...['../x', '..%2F..%2Fv1%2Fimages', '..\\x', '.%2e', 'a/./b'],
  ])('%j is refused before sending', async (id) => {
    const server = await serve((_req, res) => sendJson(res, 200, { status: 'processing' }));
    const error = await serviceError(
      realClient().getTask({ baseUrl: server.origin, key: KEY, keyFingerprint: 'a' }, id),
    );
    expect(error).toMatchObject({ kind: 'config', mayHaveReachedService: false });
    expect(server.connections()).toBe(0);
  });
});

describe('checks before anything is sent', () => {
  it.each([
    ['http://example.com', 'https://'],
    ['ftp://127.0.0.1/', 'https://'],
    ['https://user:pw@api.example.com', 'user name or password'],
    ['javascript:alert(1)', 'https://'],
    ['', 'not a valid URL'],
    ['https://api.example.com/#frag', 'fragment'],
  ])('base URL %j is refused and nothing is sent', async (baseUrl, words) => {
    const fake = fakeFetch(json(200, { id: 't', status: 'processing' }));
    const client = new ServiceClient({ fetch: fake.fetch });
    for (const call of [
      () => client.submit({ baseUrl, key: KEY, keyFingerprint: 'a' }, { prompt: 'p' }),
      () => client.getTask({ baseUrl, key: KEY, keyFingerprint: 'a' }, 't'),
    ]) {
      const error = await serviceError(call());
      expect(error).toMatchObject({ kind: 'config', mayHaveReachedService: false });
      expect(error.message).toContain(words);
    }
    expect(fake.calls).toHaveLength(0);
  });

  it.each([
    ['', 'No API key is set'],
    ['  ', 'No API key is set'],
    ['sk-a b', 'contains characters'],
    ['sk-a\nX-Injected: 1', 'contains characters'],
    ['sk-ä', 'contains characters'],
  ])('key %j is refused and never sent', async (key, words) => {
    const fake = fakeFetch(json(200, { id: 't' }));
    const error = await serviceError(
      new ServiceClient({ fetch: fake.fetch }).submit(
        { baseUrl: 'https://api.example.com', key, keyFingerprint: 'a' },
        { prompt: 'p' },
      ),
    );
    expect(error).toMatchObject({ kind: 'config', mayHaveReachedService: false });
    expect(error.message).toContain(words);
    expect(fake.calls).toHaveLength(0);
  });

  it('accepts http on 127.0.0.1 and sends exactly "Bearer <key>"', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: 'ok' }));
    await realClient().submit(
      { baseUrl: server.origin, key: `  ${KEY} `, keyFingerprint: 'a' },
      { prompt: 'p' },
    );
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

/** Every way a server can hand the key back. */
const echoes: [string, (auth: string) => Parameters<typeof respond>[1]][] = [
  [
    '400 JSON error',
    (auth) => [
      400,
      'application/json',
      JSON.stringify({ error: { message: `Header was "${auth}"`, code: 'bad' } }),
    ],
  ],
  ['401 plain text', (auth) => [401, 'text/plain', `invalid token: ${auth}`]],
  ['429 JSON array', (auth) => [429, 'application/json', JSON.stringify([{ msg: auth }])]],
  [
    '500 HTML',
    (auth) => [500, 'text/html', `<html><body><pre>Authorization: ${auth}</pre></body></html>`],
  ],
  ['200 unreadable', (auth) => [200, 'text/html', `<p>You sent ${auth}</p>`]],
  ['200 wrong shape', (auth) => [200, 'application/json', JSON.stringify({ idx: auth })]],
  [
    '400 key cut by the length limit',
    (auth) => [400, 'application/json', JSON.stringify({ message: `${'x'.repeat(180)} ${auth}` })],
  ],
  [
    '200 body cut by the excerpt',
    (auth) => [200, 'text/plain', `${'y'.repeat(180)} ${auth} ${'z'.repeat(100)}`],
  ],
  ['400 percent-encoded', (auth) => [400, 'text/plain', `got ${encodeURIComponent(auth)}`]],
];

function respond(
  res: Parameters<Handler>[1],
  [status, type, body]: [number, string, string],
): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

function expectNoKey(error: unknown, key: string): void {
  const texts = [
    JSON.stringify(error),
    String(error),
    (error as Error).message,
    (error as ServiceError).detail ?? '',
    (error as Error).stack ?? '',
  ];
  for (const text of texts) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(0, 10));
    expect(text).not.toContain(encodeURIComponent(key).slice(0, 10));
  }
}

describe('the key never appears in an error', () => {
  it.each(echoes)('%s echoing the Authorization header', async (_name, make) => {
    for (const key of [KEY, 'sk-"quoted\\key"-777']) {
      const server = await serve((req, res) => respond(res, make(req.headers.authorization ?? '')));
      const creds = { baseUrl: server.origin, key, keyFingerprint: 'a' };
      for (const call of [
        () => realClient().submit(creds, { prompt: 'p' }),
        () => realClient().getTask(creds, 't'),
      ]) {
        const error = await serviceError(call());
        expectNoKey(error, key);
        expect(error.detail ?? '').not.toBe('');
      }
    }
  });

  it('a failed task whose reason echoes the key', async () => {
    const server = await serve((req, res) =>
      sendJson(res, 200, {
        status: 'failed',
        error: { message: `${'w'.repeat(480)} ${req.headers.authorization}` },
      }),
    );
    const task = await realClient().getTask(
      { baseUrl: server.origin, key: KEY, keyFingerprint: 'a' },
      't',
    );
    expect(task.status).toBe('failed');
    expect(JSON.stringify(task)).not.toContain(KEY.slice(0, 10));
  });

  it('a redirect whose Location carries the key', async () => {
    const server = await serve((req, res) => {
      res.writeHead(302, { location: `http://[bad-${req.headers.authorization?.slice(7)}` });
      res.end();
    });
    const error = await serviceError(
      realClient().getTask({ baseUrl: server.origin, key: KEY, keyFingerprint: 'a' }, 't'),
    );
    expect(error.detail).toContain('[redacted]');
    expectNoKey(error, KEY);
  });

  it('a transport error whose text carries the key', async () => {
    const fake = fakeFetch(() =>
      Promise.reject(
        new TypeError(`fetch failed for ${KEY}`, { cause: { code: 'ECONNRESET', message: KEY } }),
      ),
    );
    const error = await serviceError(
      new ServiceClient({ fetch: fake.fetch }).getTask(
        { baseUrl: 'https://api.example.com', key: KEY, keyFingerprint: 'a' },
        't',
      ),
    );
    expect(error.detail).toContain('ECONNRESET');
    expectNoKey(error, KEY);
  });
});
