/**
 * The local-server gate judges the CONNECTION, not a look at the port beforehand: a server that
 * binds a loopback port between a look and the connect (a squatter racing the real one) used to
 * get the request and its key. The pinned transports (image downloads, signed uploads, and the
 * service's plain-http requests to this computer in the app and the CLI: `pinLocalServers`) now
 * connect, read who owns the server's end of that very connection (its ESTABLISHED row in the
 * socket tables carries the uid of the listener that took it), and write nothing to another
 * user's. A plain-http name is pinned to the address judged: a second DNS answer, or another
 * resolver's, cannot move it.
 *
 * The squatter is a raw TCP server on loopback that records every byte it is sent. The race is
 * the fault the test injects: the listener's rows in the real tables stay this user's (what a look
 * beforehand saw), while the rows of the connections it took are made another user's.
 */
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpsServer } from 'node:https';
import tls from 'node:tls';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { gatedTransports } from '../../../electron/core/download';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { readSocketTables, type SocketTables } from '../../../electron/core/service/local-owner';
import { ServiceError } from '../../../electron/core/service';
import { startDemoService } from '../../../electron/demo-service/server';
import { StaticCredentials } from '../../fakes/static-credentials';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';
import { selfSignedCertificate } from '../../support/unsent-servers';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';

const KEY = 'sk-raced-port-key-0c3d77';
const OTHER_UID = 4242;
const ONLY_LINUX = process.platform !== 'linux';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A raw squatter: takes connections, answers nothing, keeps every byte it is sent. */
interface Squatter {
  readonly port: number;
  readonly bytes: () => string;
  readonly connections: () => number;
}

/**
 * The raw squatter, and its `hangUp`: it closes every connection it holds and each one it takes
 * from then on, so a request it was sent ends at once (a transport error) instead of at the
 * client's time limit.
 */
async function squatter(
  host = '127.0.0.1',
  port = 0,
): Promise<Squatter & { readonly hangUp: () => void }> {
  let bytes = '';
  let connections = 0;
  let hungUp = false;
  const sockets = new Set<Socket>();
  const server: Server = createTcpServer((socket) => {
    connections += 1;
    if (hungUp) return void socket.destroy();
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => (bytes += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  });
  return {
    port: (server.address() as AddressInfo).port,
    bytes: () => bytes,
    connections: () => connections,
    hangUp: () => {
      hungUp = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * The real tables with the connections `port`'s listener took made `uid`'s: the server's end of
 * each (its local port `port`, not LISTEN). The listener's own row is left as it is.
 */
function connectionsOwnedBy(tables: SocketTables, port: number, uid: number): SocketTables {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const server = new RegExp(
    `^\\s*\\d+:\\s+[0-9A-F]+:${hexPort}\\s+[0-9A-F]+:[0-9A-F]{4}\\s+(?!0A)`,
  );
  const rewrite = (table: string | null) =>
    table
      ?.split('\n')
      .map((line) =>
        server.test(line) ? line.replace(/^(\s*\d+:(?:\s+\S+){6}\s+)\d+/, `$1${uid}`) : line,
      )
      .join('\n') ?? null;
  return { tcp: rewrite(tables.tcp), tcp6: rewrite(tables.tcp6) };
}

/** The race: a look at the listener finds this user's; the server connected to is another's. */
const raced = (port: number) => async () =>
  connectionsOwnedBy(await readSocketTables(), port, OTHER_UID);

async function core(
  baseUrl: string,
  tables: () => Promise<SocketTables>,
  allowed: readonly string[] = [],
): Promise<PictorCore> {
  const dir = await tempFolder('race', memoryTempParent());
  cleanups.push(() => removeFolder(dir));
  const opened = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: () => Promise.reject(new Error('the host transport must not carry this request')),
    pinLocalServers: true,
    credentials: new StaticCredentials(baseUrl, KEY),
    clock: systemClock,
    requestTimeoutMs: 5_000,
    historyPort: { inThread: true },
    inputSettings: () => ({
      neverUploadInputs: false,
      publicUploadConsent: [],
      allowedLocalServers: allowed,
    }),
    localServers: { tables },
    engine: { pollIntervalMs: 200, maxBackoffMs: 1_000 },
    ...bundledAnswers(),
  });
  cleanups.push(() => opened.close());
  return opened;
}

async function refusal(sent: Promise<unknown>): Promise<ServiceError> {
  const error = await sent.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).sentence?.key).toBe('error.service.localServerOtherUser');
  expect((error as ServiceError).mayHaveReachedService).toBe(false);
  expect(JSON.stringify(error)).not.toContain(KEY);
  return error as ServiceError;
}

describe.skipIf(ONLY_LINUX)('a server that took the port after any look (Linux)', () => {
  it.each(['127.0.0.1', '[::1]', 'localhost'])(
    'at %s is sent no byte of a service request: the connection itself is judged',
    async (host) => {
      const server = await squatter(host === '[::1]' ? '::1' : '127.0.0.1');
      const baseUrl = `http://${host}:${server.port}`;
      const opened = await core(baseUrl, raced(server.port));
      const credentials = { baseUrl, key: KEY, keyFingerprint: 'f', provider: 'pictor' as const };
      await refusal(opened.client.submit(credentials, { prompt: 'a lighthouse' }));
      await refusal(opened.client.getTask(credentials, { taskId: 'task-1' }));
      expect(server.connections()).toBeGreaterThan(0);
      expect(server.bytes()).toBe('');
    },
  );

  it('is sent no byte of an image download or a signed upload', async () => {
    const server = await squatter();
    const gate = { tables: raced(server.port) };
    const { imageFetch, signedFetch } = gatedTransports(
      { fetch: () => Promise.reject(new Error('unused')), localServers: gate },
      () => [],
    );
    const pin = { address: '127.0.0.1', family: 4 } as const;
    const url = `http://127.0.0.1:${server.port}/view?key=${KEY}`;
    await refusal(imageFetch(url, { headers: { authorization: `Bearer ${KEY}` } }, pin));
    await refusal(signedFetch(url, { method: 'PUT', body: `body ${KEY}` }, pin));
    expect(server.connections()).toBe(2);
    expect(server.bytes()).toBe('');
  });

  it('is sent to once the user allowed its address', async () => {
    const server = await squatter();
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const opened = await core(baseUrl, raced(server.port), [`127.0.0.1:${server.port}`]);
    const credentials = { baseUrl, key: KEY, keyFingerprint: 'f', provider: 'pictor' as const };
    const sent = opened.client.getTask(credentials, { taskId: 'task-1' }).catch(() => undefined);
    await vi.waitFor(() => expect(server.bytes()).toContain(`Bearer ${KEY}`), UNTIL);
    // It was sent: the squatter ends it rather than the request's 5 s time limit.
    server.hangUp();
    await opened.close();
    await sent;
  });

  it('a plain-http name is sent to the address judged, never through a second lookup', async () => {
    const server = await squatter();
    const baseUrl = `http://pictor-rebind.test:${server.port}`;
    const tables = raced(server.port);
    // The gate's lookup answers this computer; the host's transport (which would look it up
    // again, maybe elsewhere) is never asked.
    const resolve = async () => [{ address: '127.0.0.1', family: 4 } as const];
    const { fetch } = gatedTransports(
      {
        fetch: () => Promise.reject(new Error('the host transport must not carry this request')),
        pinLocalServers: true,
        localServers: { tables, resolve },
      },
      () => [],
    );
    await refusal(fetch(`${baseUrl}/v1/tasks/1`, { headers: { authorization: `Bearer ${KEY}` } }));
    expect(server.connections()).toBe(1);
    expect(server.bytes()).toBe('');
  });
});

describe.skipIf(ONLY_LINUX)('this user’s own server, through the judged transport (Linux)', () => {
  it('runs a task’s whole life: submit, polls, images saved', async () => {
    const service = await startDemoService({
      accounts: [{ account: 'alice', key: KEY }],
      durationMs: { min: 300, max: 600 },
    });
    cleanups.push(() => service.close());
    const opened = await core(service.url, readSocketTables);
    opened.engine.start();
    const [record] = await opened.engine.submit(
      { prompt: 'a lighthouse', size: '64x64' },
      targetAt(service.url),
    );
    const done = () => opened.engine.get(record!.localId);
    await vi.waitFor(() => expect(done()?.status).toBe('completed'), UNTIL);
    await vi.waitFor(
      () => expect(done()?.images.every((image) => image.state === 'saved')).toBe(true),
      UNTIL,
    );
  });
});

/**
 * `cert` trusted by this process's TLS (Node's default authorities and it) until the test ends:
 * the trust a user's own local authority gives, so only the gate stands between.
 */
function trustedForTheTest(cert: Buffer): void {
  const before = tls.getCACertificates('default');
  tls.setDefaultCACertificates([...before, cert.toString()]);
  cleanups.push(async () => tls.setDefaultCACertificates(before));
}

/** An https squatter on 127.0.0.1 with a trusted certificate: keeps what the requests say. */
async function tlsSquatter(): Promise<Squatter> {
  const { key, cert } = await selfSignedCertificate();
  trustedForTheTest(cert);
  let bytes = '';
  let connections = 0;
  const server = tls.createServer({ key, cert }, (socket) => {
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.toString('latin1');
      socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((done) => server.close(done)));
  return {
    port: (server.address() as AddressInfo).port,
    bytes: () => bytes,
    connections: () => connections,
  };
}

/** The service's transport as the app and the CLI have it, the host's being Node's `fetch`. */
function serviceFetch(tables: () => Promise<SocketTables>) {
  return gatedTransports(
    { fetch: (url, init) => fetch(url, init), pinLocalServers: true, localServers: { tables } },
    () => [],
  ).fetch;
}

describe.skipIf(ONLY_LINUX)('an https server on loopback that took the port (Linux)', () => {
  it('is sent no byte of a service request, its certificate trusted or not', async () => {
    const server = await tlsSquatter();
    const sent = serviceFetch(raced(server.port))(`https://127.0.0.1:${server.port}/v1/tasks/1`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    await refusal(sent);
    expect(server.connections()).toBe(1);
    expect(server.bytes()).toBe('');
  });

  it('this user’s own is reached through the judged transport, its certificate checked', async () => {
    const { key, cert } = await selfSignedCertificate();
    trustedForTheTest(cert);
    const seen: string[] = [];
    const own = createHttpsServer({ key, cert }, (req, res) => {
      seen.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((done) => own.close(done)));
    const { port } = own.address() as AddressInfo;
    const { fetch: judged } = gatedTransports(
      {
        fetch: () => Promise.reject(new Error('the host transport must not carry this request')),
        pinLocalServers: true,
        localServers: { tables: readSocketTables },
      },
      () => [],
    );
    const url = `https://127.0.0.1:${port}/v1/tasks/1`;
    const response = await judged(url, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual([`Bearer ${KEY}`]);
  });
});
