/**
 * The CLI honours HTTP(S)_PROXY and NO_PROXY, except for this computer: checked with a real
 * recording proxy on loopback. A proxy that saw a request to a loopback service would have seen
 * its Authorization header in clear (plain http), so for loopback it must see nothing at all.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch, loopbackFirstLookup } from '../../../electron/adapters/node-fetch';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

async function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

/** What a proxy received: every tunnel it opened and every plain request sent to it. */
interface Recorded {
  readonly url: string;
  readonly proxy: number;
}

/**
 * A forward proxy that records all it receives: CONNECT tunnels (undici tunnels through it) and
 * absolute-form requests. Every tunnel goes to 127.0.0.1 at the port asked, whatever the name,
 * so a name no resolver knows can stand for a remote service.
 */
async function startProxy(seen: string[]): Promise<Recorded> {
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} auth=${req.headers.authorization ?? ''}`);
    res.writeHead(502).end();
  });
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const port = Number((req.url ?? '').split(':').pop());
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(proxy);
  return { url: `http://127.0.0.1:${port}`, proxy: port };
}

/** A service that answers with the Authorization header it got. */
async function startTarget(host = '127.0.0.1'): Promise<number> {
  return listen(
    createServer((req, res) => res.end(`auth=${req.headers.authorization ?? ''}`)),
    host,
  );
}

const KEY = { authorization: 'Bearer sk-loopback-9f2e41' };

describe('createNodeFetch', () => {
  it('goes direct when no proxy is set', async () => {
    const port = await startTarget();
    const response = await createNodeFetch({})(`http://127.0.0.1:${port}/x`, { headers: KEY });
    expect(await response.text()).toBe(`auth=${KEY.authorization}`);
  });

  it('sends requests to other hosts through HTTP_PROXY', async () => {
    const seen: string[] = [];
    const proxy = await startProxy(seen);
    const port = await startTarget();
    const response = await createNodeFetch({ HTTP_PROXY: proxy.url, NO_PROXY: '' })(
      `http://service.invalid:${port}/via-proxy`,
    );
    expect(await response.text()).toBe('auth=');
    expect(seen).toEqual([`CONNECT service.invalid:${port}`]);
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const seen: string[] = [];
    const proxy = await startProxy(seen);
    const port = await startTarget();
    // Direct, a name no resolver knows cannot be reached: the request fails without the proxy.
    await expect(
      createNodeFetch({ HTTP_PROXY: proxy.url, NO_PROXY: 'service.invalid' })(
        `http://service.invalid:${port}/direct`,
      ),
    ).rejects.toThrow();
    expect(seen).toEqual([]);
  });

  it('sends a FormData body as multipart/form-data, parts in order, file last', async () => {
    let got = { type: '', body: '' };
    const port = await listen(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          got = { type: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString() };
          res.end('ok');
        });
      }),
    );
    const form = new FormData();
    form.append('policy', 'p-1');
    form.append('file', new Blob(['PNG-BYTES'], { type: 'image/png' }), 'a.png');
    const response = await createNodeFetch({})(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'X-Extra': 'kept' },
      body: form,
    });
    expect(await response.text()).toBe('ok');
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(got.type)?.[1];
    expect(boundary, got.type).toBeDefined();
    expect(got.body).not.toContain('[object FormData]');
    const policy = got.body.indexOf('name="policy"\r\n\r\np-1');
    const file = got.body.indexOf('name="file"; filename="a.png"\r\nContent-Type: image/png');
    expect(policy).toBeGreaterThan(0);
    expect(file).toBeGreaterThan(policy);
    expect(got.body.endsWith(`PNG-BYTES\r\n--${boundary!}--\r\n`)).toBe(true);
  });

  describe('this computer never goes through a proxy, whatever NO_PROXY says', () => {
    const proxyVariables = [
      { HTTP_PROXY: 'url' },
      { http_proxy: 'url' },
      { HTTPS_PROXY: 'url' },
      { HTTP_PROXY: 'url', NO_PROXY: '' },
      { HTTP_PROXY: 'url', NO_PROXY: 'example.com' },
    ];
    const loopbackUrls = [
      (port: number) => `http://127.0.0.1:${port}`,
      (port: number) => `http://localhost:${port}`,
      (port: number) => `http://LOCALHOST.:${port}`,
      (port: number) => `http://pictor-test.localhost:${port}`,
      (port: number) => `http://2130706433:${port}`,
      (port: number) => `http://[::ffff:127.0.0.1]:${port}`,
    ];

    it.each(proxyVariables)('with %o: the key reaches the service only', async (variables) => {
      const seen: string[] = [];
      const proxy = await startProxy(seen);
      const port = await startTarget();
      const env = Object.fromEntries(
        Object.entries(variables).map(([name, value]) => [
          name,
          value === 'url' ? proxy.url : value,
        ]),
      );
      const fetch = createNodeFetch(env);
      for (const url of loopbackUrls) {
        const response = await fetch(`${url(port)}/v1/tasks/1`, { headers: KEY });
        expect(await response.text(), url(port)).toBe(`auth=${KEY.authorization}`);
      }
      expect(seen, 'the proxy received nothing').toEqual([]);
    });

    it('reaches a service on [::1] and on 127.0.0.2 directly too', async () => {
      const seen: string[] = [];
      const proxy = await startProxy(seen);
      const v6 = await startTarget('::1');
      const other = await startTarget('127.0.0.2');
      const fetch = createNodeFetch({ HTTP_PROXY: proxy.url });
      for (const url of [`http://[::1]:${v6}/x`, `http://127.0.0.2:${other}/x`]) {
        expect(await (await fetch(url, { headers: KEY })).text(), url).toBe(
          `auth=${KEY.authorization}`,
        );
      }
      expect(seen).toEqual([]);
    });
  });
});

describe('loopbackFirstLookup', () => {
  const ask = (hostname: string, options: Parameters<typeof loopbackFirstLookup>[1]) =>
    new Promise<unknown>((resolve, reject) =>
      loopbackFirstLookup(hostname, options, (error, address, family) =>
        error ? reject(error) : resolve(options.all ? address : { address, family }),
      ),
    );

  it('answers the localhost names with loopback itself, in any spelling', async () => {
    for (const name of ['localhost', 'LocalHost.', 'a.b.localhost']) {
      expect(await ask(name, { all: true }), name).toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
      expect(await ask(name, { family: 6 }), name).toEqual({ address: '::1', family: 6 });
      expect(await ask(name, {}), name).toEqual({ address: '127.0.0.1', family: 4 });
    }
  });

  it('leaves other names to the system resolver', async () => {
    await expect(ask('no-such-host.invalid', { all: true })).rejects.toThrow(/ENOTFOUND|EAI_AGAIN/);
  });
});
