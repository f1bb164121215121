/** Transport behaviour against real node:http servers on 127.0.0.1, through Node's own fetch. */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { caught } from './fake-fetch';
import { closedPort, sendJson, closeServers, serve } from '../../../support/http-servers';

const KEY = 'sk-live-TRANSPORT-4242';
afterEach(closeServers);

function client(requestTimeoutMs = 2_000): ServiceClient {
  return new ServiceClient({ fetch: (url, init) => fetch(url, init), requestTimeoutMs });
}

function creds(baseUrl: string) {
  return { baseUrl, key: KEY, keyFingerprint: 'acct' };
}

async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('a working service', () => {
  it('submits and queries with exactly the spec headers and body', async () => {
    const server = await serve((req, res) => {
      if (req.method === 'POST') sendJson(res, 200, { id: 'task_77', object: 'task' });
      else
        sendJson(res, 200, {
          id: 'task_77',
          status: 'completed',
          output: { data: [{ url: 'https://cdn.example/1.png' }] },
        });
    });
    const service = client();
    const { id } = await service.submit(creds(`${server.origin}/`), {
      prompt: 'a red fox',
      size: '512x512',
    });
    expect(id).toBe('task_77');
    await expect(service.getTask(creds(server.origin), id)).resolves.toEqual({
      status: 'completed',
      imageUrls: ['https://cdn.example/1.png'],
    });
    const [post, get] = server.requests;
    expect(post).toMatchObject({
      method: 'POST',
      url: '/v1/images/generations',
      body: '{"prompt":"a red fox","size":"512x512"}',
    });
    expect(post!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.headers.accept).toBe('application/json');
    expect(get).toMatchObject({ method: 'GET', url: '/v1/tasks/task_77', body: '' });
    expect(get!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reaches http://localhost and a base URL with a path prefix', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { status: 'processing' }));
    await expect(client().getTask(creds(`http://localhost:${server.port}`), 't1')).resolves.toEqual(
      { status: 'processing' },
    );
    await expect(client().getTask(creds(`${server.origin}/api/`), 't2')).resolves.toEqual({
      status: 'processing',
    });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/tasks/t1', '/api/v1/tasks/t2']);
  });
});

describe('network failures', () => {
  it('connection refused: nothing reached the service', async () => {
    const port = await closedPort();
    const error = await serviceError(
      client().submit(creds(`http://127.0.0.1:${port}`), { prompt: 'p' }),
    );
    expect(error).toMatchObject({ kind: 'network', mayHaveReachedService: false });
    expect(error.message).toContain('nothing was sent');
    expect(error.detail).toContain('ECONNREFUSED');
  });

  it('socket destroyed after the request was read: it may have reached the service', async () => {
    const server = await serve((req) => req.socket.destroy());
    const error = await serviceError(client().submit(creds(server.origin), { prompt: 'p' }));
    expect(error).toMatchObject({ kind: 'network', mayHaveReachedService: true });
    expect(error.message).toContain('cannot tell whether the task was created');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['with a Content-Length', { 'content-length': '200' }],
    ['chunked', {}],
  ])(
    'headers, half a body (%s), then the socket dies: broke while reading',
    async (_name, headers) => {
      const server = await serve((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...headers });
        res.write('{"id":"task_1", "pad": "');
        setTimeout(() => req.socket.destroy(), 20);
      });
      const error = await serviceError(client().submit(creds(server.origin), { prompt: 'p' }));
      expect(error).toMatchObject({ kind: 'network', mayHaveReachedService: true });
      expect(error.message).toMatch(
        /^The connection to the service broke while reading its answer\./,
      );
    },
  );

  it('a server slower than the timeout: timeout, may have reached', async () => {
    const server = await serve(() => undefined);
    const error = await serviceError(client(200).submit(creds(server.origin), { prompt: 'p' }));
    expect(error).toMatchObject({ kind: 'timeout', mayHaveReachedService: true });
    expect(error.message).toContain('within 200 ms');
    expect(server.requests).toHaveLength(1);
  });

  it('a body that stalls after the headers: timeout', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":');
    });
    const error = await serviceError(client(200).getTask(creds(server.origin), 't'));
    expect(error).toMatchObject({ kind: 'timeout', mayHaveReachedService: true });
  });

  it('a body larger than the cap is stopped: protocol', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"id":"t","pad":"${'x'.repeat(64 * 1024)}`);
      // Never ends: the client must stop on its own once past the cap.
    });
    const service = new ServiceClient({
      fetch: (url, init) => fetch(url, init),
      maxResponseBytes: 16 * 1024,
    });
    const error = await serviceError(service.submit(creds(server.origin), { prompt: 'p' }));
    expect(error).toMatchObject({ kind: 'protocol', mayHaveReachedService: true });
  });

  it("the caller's abort comes back unchanged", async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    const reason = new Error('app is quitting');
    const pending = client().getTask(creds(server.origin), 't', controller.signal);
    setTimeout(() => controller.abort(reason), 50);
    expect(await caught(pending)).toBe(reason);
  });

  it('an error status with a body that dies keeps its status meaning', async () => {
    const server = await serve((req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('overloaded');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const error = await serviceError(client().getTask(creds(server.origin), 't'));
    expect(error).toMatchObject({ kind: 'server', httpStatus: 503, mayHaveReachedService: false });
    expect(error.detail).toContain('overloaded');
  });
});
