/**
 * A local engine served over https with a certificate from an authority the user installed in the
 * system's store (mkcert and the like) is trusted by the pinned transport, for its service calls
 * and its image downloads alike, as a browser on the same computer trusts it; Node's bundled
 * authorities alone refused it (core/download/trusted-authorities.ts).
 *
 * The system's store, without root: on Linux Node reads it through OpenSSL's default locations,
 * which SSL_CERT_FILE and SSL_CERT_DIR name instead when set. This file points them at a test
 * authority and an empty folder before anything in its process reads the store (Node reads it
 * once per process: the file runs in a process of its own, assigning the environment), and checks
 * that the store then holds the authority, so a store read earlier fails here, not in the cases.
 *
 * The CLI's own transport (undici, for the service's requests that are not pinned: an https name)
 * trusts the same authorities, as the app's Chromium trusts the system's.
 *
 * Hostile: a certificate that authority signed for another name is still refused, and a server
 * another user runs on the port, holding a certificate from that authority, is sent nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { gatedTransports } from '../../../electron/core/download';
import { ServiceError } from '../../../electron/core/service';
import { readSocketTables, type SocketTables } from '../../../electron/core/service/local-owner';
import { ownedBy } from '../support/owned-tables';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';

const KEY = 'sk-local-https-key-5e21a9';
const OTHER_UID = 4242;
const ONLY_LINUX = process.platform !== 'linux';

let dir: string;
let authority: string;
const cleanups: (() => Promise<unknown>)[] = [];

const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });

/** A key and a certificate for `names` (subjectAltName entries) signed by the test authority. */
async function issued(label: string, names: string): Promise<{ key: Buffer; cert: Buffer }> {
  const file = (suffix: string) => join(dir, `${label}.${suffix}`);
  openssl(
    ...['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
    ...['-keyout', file('key'), '-out', file('csr'), '-subj', `/CN=${label}`],
  );
  await writeFile(file('ext'), `subjectAltName=${names}\n`);
  openssl(
    ...['x509', '-req', '-in', file('csr'), '-CA', join(dir, 'ca.pem')],
    ...['-CAkey', join(dir, 'ca.key'), '-CAcreateserial', '-days', '2'],
    ...['-extfile', file('ext'), '-out', file('pem')],
  );
  return { key: await readFile(file('key')), cert: await readFile(file('pem')) };
}

beforeAll(async () => {
  dir = await tempFolder('tls41', memoryTempParent());
  openssl(
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
    ...['-keyout', join(dir, 'ca.key'), '-out', join(dir, 'ca.pem'), '-days', '2'],
    ...['-subj', '/CN=Pictor test local authority'],
  );
  authority = (await readFile(join(dir, 'ca.pem'), 'utf8')).trim();
  await mkdir(join(dir, 'no-certs'));
  process.env.SSL_CERT_FILE = join(dir, 'ca.pem');
  process.env.SSL_CERT_DIR = join(dir, 'no-certs');
  const system = tls.getCACertificates('system').map((pem) => pem.trim());
  expect(system).toEqual([authority]);
  // Not one of Node's own: only the system's store can make the pinned transport trust it.
  expect(tls.getCACertificates('default').map((pem) => pem.trim())).not.toContain(authority);
});

afterAll(async () => {
  await removeFolder(dir);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An https server on 127.0.0.1 answering `{"ok":true}`; keeps each request's authorization. */
async function localEngine(certificate: { key: Buffer; cert: Buffer }) {
  const seen: string[] = [];
  const server = createHttpsServer(certificate, (req, res) => {
    seen.push(`${req.url} ${String(req.headers.authorization)}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((done) => server.close(done)));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** The core's transports as the app and the CLI have them; the host's must not be asked. */
function transports(tables: () => Promise<SocketTables> = readSocketTables) {
  return gatedTransports(
    {
      fetch: () => Promise.reject(new Error('the host transport must not carry this request')),
      pinLocalServers: true,
      localServers: { tables },
    },
    () => [],
  );
}

const LOOPBACK = { address: '127.0.0.1', family: 4 } as const;
const keyed = { headers: { authorization: `Bearer ${KEY}` } };

describe.skipIf(ONLY_LINUX)('https on this computer, its authority in the system store', () => {
  it('is trusted for the service calls and the image downloads alike', async () => {
    const engine = await localEngine(await issued('engine', 'IP:127.0.0.1,DNS:localhost'));
    const { fetch, imageFetch } = transports();
    for (const host of ['127.0.0.1', 'localhost']) {
      const call = await fetch(`https://${host}:${engine.port}/prompt`, keyed);
      expect(await call.json()).toEqual({ ok: true });
      const image = await imageFetch(`https://${host}:${engine.port}/view`, keyed, LOOPBACK);
      expect(await image.json()).toEqual({ ok: true });
    }
    expect(engine.seen).toEqual([
      `/prompt Bearer ${KEY}`,
      `/view Bearer ${KEY}`,
      `/prompt Bearer ${KEY}`,
      `/view Bearer ${KEY}`,
    ]);
  });

  it('is trusted by the CLI’s own transport too, for another name refused', async () => {
    const engine = await localEngine(await issued('engine', 'IP:127.0.0.1,DNS:localhost'));
    const other = await localEngine(await issued('elsewhere', 'DNS:other.pictor.test'));
    const fetch = createNodeFetch({});
    const call = await fetch(`https://localhost:${engine.port}/prompt`, keyed);
    expect(await call.json()).toEqual({ ok: true });
    await expect(fetch(`https://localhost:${other.port}/prompt`, keyed)).rejects.toThrow();
    expect(other.seen).toEqual([]);
  });

  it('refuses its certificate for another name, nothing sent', async () => {
    const engine = await localEngine(await issued('elsewhere', 'DNS:other.pictor.test'));
    const { fetch, imageFetch } = transports();
    const url = `https://127.0.0.1:${engine.port}/prompt`;
    const wrongName = { code: 'ERR_TLS_CERT_ALTNAME_INVALID' };
    await expect(fetch(url, keyed)).rejects.toMatchObject(wrongName);
    await expect(imageFetch(url, keyed, LOOPBACK)).rejects.toMatchObject(wrongName);
    expect(engine.seen).toEqual([]);
  });

  it('sends nothing to another user’s server holding a certificate from it', async () => {
    const { key, cert } = await issued('squatter', 'IP:127.0.0.1,DNS:localhost');
    let bytes = '';
    const squatter = tls.createServer({ key, cert }, (socket) => {
      socket.on('data', (chunk: Buffer) => (bytes += chunk.toString('latin1')));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((done) => squatter.close(done)));
    const { port } = squatter.address() as AddressInfo;
    const { fetch, imageFetch } = transports(async () =>
      ownedBy(await readSocketTables(), port, OTHER_UID),
    );
    const url = `https://127.0.0.1:${port}/prompt`;
    const refused = await fetch(url, keyed).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).sentence?.key).toBe('error.service.localServerOtherUser');
    await expect(imageFetch(url, keyed, LOOPBACK)).rejects.toThrow();
    expect(bytes).toBe('');
  });

  /** A fresh copy of the module (its context is built once per process) and a handshake with it. */
  async function handshake(port: number): Promise<string> {
    vi.resetModules();
    const fresh = await import('../../../electron/core/download/trusted-authorities');
    return new Promise((settle) => {
      const socket = tls.connect({
        host: '127.0.0.1',
        port,
        servername: 'localhost',
        secureContext: fresh.trustedContext(),
      });
      socket.once('secureConnect', () => {
        socket.destroy();
        settle('trusted');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    });
  }

  type Read = typeof tls.getCACertificates;
  const original: Read = tls.getCACertificates.bind(tls);
  const failing: Read = (type) => {
    if (type === 'system') throw new Error('the system store could not be read');
    return original(type);
  };
  it.each([
    ['reads', (): Read | undefined => original, 'trusted'],
    [
      'has no function to read',
      (): Read | undefined => undefined,
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    ],
    ['fails to read', (): Read | undefined => failing, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'],
  ] as const)(
    "trusts Node's own authorities at least when this Node %s the system store (which alone trusts the local engine)",
    async (_how, replacement, outcome) => {
      const engine = await localEngine(await issued('engine', 'IP:127.0.0.1,DNS:localhost'));
      const read = Object.getOwnPropertyDescriptor(tls, 'getCACertificates');
      Object.defineProperty(tls, 'getCACertificates', { value: replacement(), configurable: true });
      try {
        // Without the system's store the handshake is refused as a certificate Node's set
        // cannot verify, not before it is tried: https to every other host works as before.
        expect(await handshake(engine.port)).toBe(outcome);
      } finally {
        Object.defineProperty(tls, 'getCACertificates', read ?? {});
      }
      expect(engine.seen).toEqual([]);
    },
  );
});
