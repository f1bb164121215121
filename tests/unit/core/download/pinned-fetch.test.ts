/**
 * The pinned fetch connects to the address it is given, never to what the name resolves to,
 * and still checks TLS certificates against the host name (SNI sent, wrong name refused).
 * Certificates are made with openssl for names that exist nowhere. With a body (signed uploads:
 * a PUT of bytes, a POST of a form) the bytes reach the pinned address exactly as sent, with
 * their type and length; a redirect is returned, a body on a GET refused, the signal honoured.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { readForm } from '../../../../electron/demo-service/multipart';
import { UNTIL } from '../../../support/waits';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

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

interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/** A server that records each request with its whole body, then lets `reply` answer. */
function bodyRecorder(reply: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: Received[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { method, url, headers } = req;
      received.push({ method, url, headers, body: Buffer.concat(chunks) });
      reply(req, res);
    });
  });
  return { received, server };
}

describe('a body (signed uploads)', () => {
  const BYTES = Buffer.from(Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256));
  const elsewhere = bodyRecorder((_req, res) => res.writeHead(200).end());
  let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) =>
    res.writeHead(200).end();
  const storage = bodyRecorder((req, res) => answer(req, res));
  let port: number;
  const pin = { address: '127.0.0.2', family: 4 } as const;

  beforeAll(async () => {
    port = await listen(elsewhere.server, '127.0.0.1');
    await listen(storage.server, '127.0.0.2', port);
  });

  afterAll(async () => {
    await Promise.all([close(elsewhere.server), close(storage.server)]);
  });

  it('PUTs bytes to the pinned address byte for byte, with their type and length', async () => {
    const response = await createPinnedFetch()(
      `http://localhost:${port}/fal/1?token=t`,
      {
        method: 'PUT',
        headers: { 'Content-Type': 'image/png' },
        body: new Blob([BYTES], { type: 'image/png' }),
        redirect: 'manual',
      },
      pin,
    );
    expect(response.status).toBe(200);
    const seen = storage.received.at(-1);
    expect([seen?.method, seen?.url]).toEqual(['PUT', '/fal/1?token=t']);
    expect(seen?.headers['content-type']).toBe('image/png');
    expect(seen?.headers['content-length']).toBe(String(BYTES.length));
    expect(seen?.headers['transfer-encoding']).toBeUndefined();
    expect(seen?.body.equals(BYTES)).toBe(true);
    expect(elsewhere.received).toEqual([]);
  });

  it('POSTs a form as multipart/form-data, every part as it was appended', async () => {
    const form = new FormData();
    form.append('policy', 'cG9saWN5');
    form.append('key', 'dir/a.png');
    form.append('file', new Blob([BYTES], { type: 'image/png' }), 'a.png');
    const response = await createPinnedFetch()(
      `http://localhost:${port}/`,
      { method: 'POST', body: form, redirect: 'manual' },
      pin,
    );
    expect(response.status).toBe(200);
    const seen = storage.received.at(-1);
    expect(seen?.headers['content-length']).toBe(String(seen?.body.length));
    const parts = readForm(seen?.headers['content-type'], seen?.body ?? Buffer.alloc(0));
    expect(parts?.map((part) => [part.name, part.fileName, part.contentType])).toEqual([
      ['policy', undefined, undefined],
      ['key', undefined, undefined],
      ['file', 'a.png', 'image/png'],
    ]);
    expect(parts?.map((part) => part.value.toString('latin1'))).toEqual([
      'cG9saWN5',
      'dir/a.png',
      BYTES.toString('latin1'),
    ]);
    expect(elsewhere.received).toEqual([]);
  });

  it('returns a redirect from the upload target without following it', async () => {
    answer = (_req, res) =>
      res.writeHead(307, { Location: `http://127.0.0.1:${port}/stolen` }).end();
    try {
      const response = await createPinnedFetch()(
        `http://localhost:${port}/fal/2`,
        { method: 'PUT', body: BYTES, redirect: 'manual' },
        pin,
      );
      expect(response.status).toBe(307);
      expect(elsewhere.received).toEqual([]);
    } finally {
      answer = (_req, res) => res.writeHead(200).end();
    }
  });

  it('refuses a body on a GET, and sends nothing once the signal has aborted', async () => {
    const before = storage.received.length;
    await expect(
      createPinnedFetch()(`http://localhost:${port}/`, { method: 'GET', body: 'x' }, pin),
    ).rejects.toThrow(TypeError);
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(
      createPinnedFetch()(
        `http://localhost:${port}/`,
        { method: 'PUT', body: BYTES, signal: controller.signal },
        pin,
      ),
    ).rejects.toThrow('stopped');
    expect(storage.received.length).toBe(before);
  });

  it('stops an upload the target holds unanswered when the signal aborts', async () => {
    answer = () => undefined;
    try {
      const controller = new AbortController();
      const pending = createPinnedFetch()(
        `http://localhost:${port}/fal/3`,
        { method: 'PUT', body: BYTES, signal: controller.signal },
        pin,
      );
      await vi.waitFor(() => expect(storage.received.at(-1)?.url).toBe('/fal/3'), UNTIL);
      controller.abort(new Error('stop'));
      await expect(pending).rejects.toThrow();
    } finally {
      answer = (_req, res) => res.writeHead(200).end();
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
    dir = await tempFolder('tls');
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
    await removeFolder(dir);
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

  it('trusts only Node’s and the system’s authorities by default, no self-signed host', async () => {
    await expect(
      createPinnedFetch()(`https://images.pictor.test:${port}/a.png`, GET, {
        address: '127.0.0.1',
        family: 4,
      }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/) });
  });
});
