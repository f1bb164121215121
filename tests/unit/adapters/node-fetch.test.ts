/** The CLI honours HTTP(S)_PROXY and NO_PROXY: checked with a recording proxy on loopback. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A forward proxy that records each tunnel it opens (undici's ProxyAgent tunnels with CONNECT). */
async function startProxy(seen: string[]): Promise<string> {
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return listen(proxy);
}

async function startTarget(): Promise<string> {
  return listen(createServer((_req, res) => res.end('from target')));
}

describe('createNodeFetch', () => {
  it('goes direct when no proxy is set', async () => {
    const target = await startTarget();
    const response = await createNodeFetch({})(`${target}/x`);
    expect(await response.text()).toBe('from target');
  });

  it('sends requests through HTTP_PROXY', async () => {
    const seen: string[] = [];
    const proxy = await startProxy(seen);
    const target = await startTarget();
    const targetUrl = target.replace('127.0.0.1', 'localhost');
    const response = await createNodeFetch({ HTTP_PROXY: proxy, NO_PROXY: '' })(
      `${targetUrl}/via-proxy`,
    );
    expect(await response.text()).toBe('from target');
    expect(seen).toEqual([`CONNECT ${new URL(targetUrl).host}`]);
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const seen: string[] = [];
    const proxy = await startProxy(seen);
    const target = await startTarget();
    const response = await createNodeFetch({ HTTP_PROXY: proxy, NO_PROXY: 'localhost,127.0.0.1' })(
      `${target}/direct`,
    );
    expect(await response.text()).toBe('from target');
    expect(seen).toEqual([]);
  });
});
