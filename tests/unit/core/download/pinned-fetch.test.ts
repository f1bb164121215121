/**
 * The pinned fetch connects to the address it is given, never to what the name resolves to,
 * and still checks TLS certificates against the host name (SNI sent, wrong name refused).
 * Certificates are made with openssl for names that exist nowhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';

const GET: RequestInit = { method: 'GET', redirect: 'manual', credentials: 'omit' };

function recorder(body: string) {
  const seen: { host: string | undefined; path: string | undefined; servername?: string }[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as { servername?: string | false };
    seen.push({
      host: req.headers.host,
      path: req.url,
      ...(typeof socket.servername === 'string' ? { servername: socket.servername } : {}),
    });
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Served-By': body }).end(body);
  };
  return { seen, handler };
}

async function listen(server: Server, host: string, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: Server & { closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('plain HTTP', () => {
  const secret = recorder('secret');
  const image = recorder('image');
  const secretServer = createHttpServer(secret.handler);
  const imageServer = createHttpServer(image.handler);
  let port: number;

  beforeAll(async () => {
    port = await listen(secretServer, '127.0.0.1');
    await listen(imageServer, '127.0.0.2', port);
  });

  afterAll(async () => {
    await Promise.all([close(secretServer), close(imageServer)]);
  });

  it('goes to the pinned address even for a name the system resolves elsewhere', async () => {
    // `localhost` resolves to 127.0.0.1 (or ::1) here; the pin says 127.0.0.2.
    const response = await createPinnedFetch()(`http://localhost:${port}/a.png?x=1`, GET, {
      address: '127.0.0.2',
      family: 4,
    });
    expect(await response.text()).toBe('image');
    expect(image.seen).toEqual([{ host: `localhost:${port}`, path: '/a.png?x=1' }]);
    expect(secret.seen).toEqual([]);
  });

  it('returns a redirect as it is, with its Location, without following it', async () => {
    const server = createHttpServer((_req, res) =>
      res.writeHead(302, { Location: `http://127.0.0.1:${port}/elsewhere` }).end(),
    );
    const redirectPort = await listen(server, '127.0.0.1');
    try {
      const response = await createPinnedFetch()(`http://redirect.example:${redirectPort}/`, GET, {
        address: '127.0.0.1',
        family: 4,
      });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(`http://127.0.0.1:${port}/elsewhere`);
      expect(secret.seen).toEqual([]);
    } finally {
      await close(server);
    }
  });

  it('stops when the signal aborts', async () => {
    const stalled = createHttpServer(() => undefined);
    const stalledPort = await listen(stalled, '127.0.0.1');
    try {
      const controller = new AbortController();
      const pending = createPinnedFetch()(
        `http://stall.example:${stalledPort}/`,
        { ...GET, signal: controller.signal },
        { address: '127.0.0.1', family: 4 },
      );
      controller.abort(new Error('stop'));
      await expect(pending).rejects.toThrow();
    } finally {
      await close(stalled);
    }
  });
});

describe('HTTPS', () => {
  let dir: string;
  let ca: Buffer;
  const image = recorder('tls image');
  let server: Server;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pictor-tls-'));
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=images.pictor.test',
        '-addext',
        'subjectAltName=DNS:images.pictor.test',
      ],
      { stdio: 'ignore' },
    );
    ca = await readFile(cert);
    server = createHttpsServer({ key: await readFile(key), cert: ca }, image.handler);
    port = await listen(server, '127.0.0.1');
  });

  afterAll(async () => {
    await close(server);
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the host name as SNI and accepts a certificate for it, at the pinned address', async () => {
    const response = await createPinnedFetch({ ca })(
      `https://images.pictor.test:${port}/a.png`,
      GET,
      { address: '127.0.0.1', family: 4 },
    );
    expect(await response.text()).toBe('tls image');
    expect(image.seen.at(-1)).toEqual({
      host: `images.pictor.test:${port}`,
      path: '/a.png',
      servername: 'images.pictor.test',
    });
  });

  it('refuses the certificate when the name differs, whatever address it was pinned to', async () => {
    const before = image.seen.length;
    await expect(
      createPinnedFetch({ ca })(`https://other.pictor.test:${port}/a.png`, GET, {
        address: '127.0.0.1',
        family: 4,
      }),
    ).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(image.seen.length).toBe(before);
  });

  it('trusts only the system store by default', async () => {
    await expect(
      createPinnedFetch()(`https://images.pictor.test:${port}/a.png`, GET, {
        address: '127.0.0.1',
        family: 4,
      }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/) });
  });
});
