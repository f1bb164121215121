/**
 * Loopback places where a request fails before its first byte is written, or after: a self-signed
 * TLS server (its certificate made afresh by openssl, trusted by nobody), a plain-http server
 * (an https:// request to it fails its handshake), and a server that drops the connection once it
 * has read the whole request. Every request any of them receives is counted.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { removeFolder, tempFolder } from './temp-folders';

/** One server on 127.0.0.1, its origin and the requests that reached it. */
export interface LoopbackPlace {
  readonly origin: string;
  readonly port: number;
  /** Requests read in full (method and path). */
  readonly received: string[];
  close(): Promise<void>;
}

async function listen(server: Server, scheme: 'http' | 'https', received: string[]) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A key and a self-signed certificate for 127.0.0.1, valid two days. */
export async function selfSignedCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await tempFolder('unsent-tls');
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']
        .concat(['-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1'])
        .concat(['-addext', 'subjectAltName=IP:127.0.0.1']),
      { stdio: 'ignore' },
    );
    return { key: await readFile(key), cert: await readFile(cert) };
  } finally {
    await removeFolder(dir);
  }
}

/** An https server with a self-signed certificate: no client that checks certificates gets in. */
export async function selfSignedServer(): Promise<LoopbackPlace> {
  const received: string[] = [];
  const server = createHttpsServer(await selfSignedCertificate(), (req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  return listen(server, 'https', received);
}

/** A plain-http server: an https:// request to its port fails its TLS handshake. */
export async function plainServer(): Promise<LoopbackPlace> {
  const received: string[] = [];
  const server = createHttpServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  return listen(server, 'http', received);
}

/** Reads each request to its end, then destroys the connection without a word of answer. */
export async function dropAfterRequestServer(): Promise<LoopbackPlace> {
  const received: string[] = [];
  const server = createHttpServer((req) => {
    req.resume();
    req.on('end', () => {
      received.push(`${req.method} ${req.url}`);
      req.socket.destroy();
    });
  });
  return listen(server, 'http', received);
}
