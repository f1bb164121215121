/**
 * Main's fetch in plain Node (tests/support/node-http-net.ts), which the day's memory bench gives
 * its core: the service client over it on real loopback HTTP behaves as over Electron's net
 * (redirects checked by the client, a refused connection not sent), and its polls keep one
 * connection alive as Chromium's network service does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { ServiceError } from '../../../electron/core/service/service-error';
import { closedPort, closeServers, sendJson, serve } from '../../support/http-servers';
import { createMainFetch } from '../../support/node-http-net';

afterEach(closeServers);

const KEY = 'sk-live-MAINNET-5678';
const client = () => new ServiceClient({ fetch: createMainFetch() });

describe("main's fetch over node:http", () => {
  it('submits and polls through the adapter, over one kept-alive connection', async () => {
    const server = await serve((req, res, body) => {
      if (req.method === 'POST') sendJson(res, 200, { id: 'abc', status: 'processing', body });
      else sendJson(res, 200, { status: 'processing' });
    });
    const credentials = { baseUrl: server.origin, key: KEY, keyFingerprint: 'a' };
    const service = client();
    await expect(service.submit(credentials, { prompt: 'fox' })).resolves.toMatchObject({
      id: 'abc',
    });
    for (let poll = 0; poll < 5; poll += 1) {
      await expect(service.getTask(credentials, 'abc')).resolves.toEqual({
        status: 'processing',
      });
    }
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v1/images/generations',
      ...Array.from({ length: 5 }, () => 'GET /v1/tasks/abc'),
    ]);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ prompt: 'fox' });
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.connections()).toBe(1);
  });

  it('hands a redirect to the client, which follows it within the origin only', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { status: 'processing' }));
    const server = await serve((req, res) => {
      if (req.url?.startsWith('/moved')) sendJson(res, 200, { status: 'processing' });
      else if (req.url?.includes('away')) {
        res.writeHead(302, { location: `${elsewhere.origin}${req.url}` }).end();
      } else res.writeHead(302, { location: `/moved${req.url}` }).end();
    });
    const credentials = { baseUrl: server.origin, key: KEY, keyFingerprint: 'a' };
    await expect(client().getTask(credentials, 'abc')).resolves.toEqual({ status: 'processing' });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/tasks/abc',
      '/moved/v1/tasks/abc',
    ]);
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const away = await client()
      .getTask(credentials, 'away')
      .catch((caught: unknown) => caught);
    expect(away).toBeInstanceOf(ServiceError);
    expect(String((away as Error).message)).not.toContain(KEY);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a refused connection is a network error that did not reach the service', async () => {
    const port = await closedPort();
    const error = await client()
      .submit(
        { baseUrl: `http://127.0.0.1:${port}`, key: KEY, keyFingerprint: 'a' },
        { prompt: 'fox' },
      )
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'network', mayHaveReachedService: false });
  });
});
