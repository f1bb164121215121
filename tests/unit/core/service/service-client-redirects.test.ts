/** Redirects: followed only to the same origin, and the key never goes anywhere else. */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { answer, caught, fakeFetch } from './fake-fetch';
import type { Handler } from '../../../support/http-servers';
import { sendJson, closeServers, serve } from '../../../support/http-servers';

const KEY = 'sk-live-REDIRECT-9000';
afterEach(closeServers);

function client(maxRedirects?: number): ServiceClient {
  return new ServiceClient({
    fetch: (url, init) => fetch(url, init),
    ...(maxRedirects === undefined ? {} : { maxRedirects }),
  });
}

const creds = (baseUrl: string) => ({ baseUrl, key: KEY, keyFingerprint: 'acct' });

async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

function redirectTo(location: (path: string) => string, status = 302): Handler {
  return (req, res, body) => {
    if (req.url?.startsWith('/moved')) {
      if (req.method === 'POST') sendJson(res, 200, { id: `echo:${body}` });
      else sendJson(res, 200, { status: 'processing' });
      return;
    }
    res.writeHead(status, { location: location(req.url ?? '/') });
    res.end('moved');
  };
}

describe('same-origin redirects', () => {
  it.each([
    ['relative', (path: string) => `/moved${path}`],
    ['absolute', (path: string) => `ORIGIN/moved${path}`],
  ])('a %s GET redirect is followed, with the key on both hops', async (_name, location) => {
    let origin = '';
    const server = await serve(redirectTo((path) => location(path).replace('ORIGIN', origin)));
    origin = server.origin;
    await expect(client().getTask(creds(server.origin), 'abc')).resolves.toEqual({
      status: 'processing',
    });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/tasks/abc', '/moved/v1/tasks/abc']);
    for (const request of server.requests)
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([307, 308])('a POST %d is followed and re-sends the body', async (status) => {
    const server = await serve(redirectTo((path) => `/moved${path}`, status));
    const { id } = await client().submit(creds(server.origin), { prompt: 'fox' });
    expect(id).toBe('echo:{"prompt":"fox"}');
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', '/v1/images/generations', '{"prompt":"fox"}'],
      ['POST', '/moved/v1/images/generations', '{"prompt":"fox"}'],
    ]);
  });

  it.each([
    [301, false],
    [302, false],
    [303, true],
  ])('a POST %d is not followed (it would drop the body)', async (status, reached) => {
    const server = await serve(redirectTo((path) => `/moved${path}`, status));
    const error = await serviceError(client().submit(creds(server.origin), { prompt: 'fox' }));
    expect(error).toMatchObject({
      kind: 'protocol',
      httpStatus: status,
      mayHaveReachedService: reached,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a redirect loop stops after maxRedirects hops', async () => {
    const server = await serve((req, res) => {
      res.writeHead(302, { location: '/v1/tasks/loop' });
      res.end();
    });
    const error = await serviceError(client(3).getTask(creds(server.origin), 'loop'));
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('kept redirecting');
    expect(server.requests).toHaveLength(4);
    const none = await serve((req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    await serviceError(client(0).getTask(creds(none.origin), 'x'));
    expect(none.requests).toHaveLength(1);
  });
});

describe('redirects elsewhere are refused', () => {
  it('another origin (another port) receives no request at all', async () => {
    const other = await serve((_req, res) =>
      sendJson(res, 200, { id: 'stolen', status: 'processing' }),
    );
    const server = await serve(redirectTo((path) => `${other.origin}${path}`, 307));
    for (const call of [
      () => client().submit(creds(server.origin), { prompt: 'p' }),
      () => client().getTask(creds(server.origin), 't'),
    ]) {
      const error = await serviceError(call());
      expect(error).toMatchObject({ kind: 'protocol', mayHaveReachedService: false });
      expect(error.message).toBe(
        'The service redirected the request to another address, and Pictor did not send the key there. Check the service URL in Settings.',
      );
      expect(error.detail).toContain(other.origin);
    }
    expect(other.requests).toHaveLength(0);
    expect(other.connections()).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('the same port under another host name is another origin', async () => {
    let port = 0;
    const server = await serve(redirectTo((path) => `http://localhost:${port}/moved${path}`));
    port = server.port;
    await serviceError(client().getTask(creds(server.origin), 't'));
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    'ftp://127.0.0.1/x',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/plain,hi',
    'http://[::1',
    'http://user:pw@127.0.0.1:PORT/moved',
  ])('Location %s is refused', async (location) => {
    const server = await serve((req, res) => {
      res.writeHead(302, { location: location.replace('PORT', String(server.port)) });
      res.end();
    });
    const error = await serviceError(client().getTask(creds(server.origin), 't'));
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('did not send the key there');
    expect(server.requests).toHaveLength(1);
  });

  it('an opaque redirect (a transport that hides the Location) is refused', async () => {
    const opaque = new Response(null, { status: 200 });
    Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
    Object.defineProperty(opaque, 'status', { value: 0 });
    const fake = fakeFetch(() => opaque, answer(200, '{"status":"processing"}'));
    const error = await serviceError(
      new ServiceClient({ fetch: fake.fetch }).getTask(creds('https://api.example.com'), 't'),
    );
    expect(error.message).toContain('did not send the key there');
    expect(fake.calls).toHaveLength(1);
  });

  it('a 3xx without Location is an unexpected status, not a redirect', async () => {
    const fake = fakeFetch(answer(302, ''));
    const error = await serviceError(
      new ServiceClient({ fetch: fake.fetch }).getTask(creds('https://api.example.com'), 't'),
    );
    expect(error).toMatchObject({ kind: 'protocol', httpStatus: 302 });
    expect(error.message).toContain('unexpected status');
  });
});
