/**
 * Image hosts that answer with exact bytes: a raw `net` (or `tls`) server that reads a request's
 * head and hands the socket to the test, which writes what it wants, whole or one byte per write,
 * well formed or hostile. And a self-signed certificate for a name that exists nowhere.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

export type Respond = (socket: Socket, head: string) => void | Promise<void>;

export interface RawHost {
  readonly port: number;
  /** The request heads received, in order. */
  readonly heads: string[];
  /** Sockets that have closed on the host's side. */
  readonly closed: Socket[];
  /** Connections accepted, and bytes received on them (a TLS ClientHello among them). */
  readonly seen: { connections: number; bytes: number };
  close(): Promise<void>;
}

function onRequest(respond: Respond, heads: string[], closed: Socket[]) {
  return (socket: Socket) => {
    let seen = '';
    socket.on('error', () => undefined);
    socket.on('close', () => closed.push(socket));
    const read = (data: Buffer) => {
      seen += data.toString('latin1');
      const end = seen.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', read);
      heads.push(seen.slice(0, end));
      void Promise.resolve(respond(socket, seen.slice(0, end))).catch(() => socket.destroy());
    };
    socket.on('data', read);
  };
}

async function listening(server: Server, heads: string[], closed: Socket[]): Promise<RawHost> {
  const sockets = new Set<Socket>();
  const seen = { connections: 0, bytes: 0 };
  server.on('connection', (socket: Socket) => {
    seen.connections += 1;
    sockets.add(socket);
    socket.on('data', (data: Buffer) => (seen.bytes += data.length));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    heads,
    closed,
    seen,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A plain host on 127.0.0.1. */
export function rawHost(respond: Respond): Promise<RawHost> {
  const heads: string[] = [];
  const closed: Socket[] = [];
  return listening(createServer(onRequest(respond, heads, closed)), heads, closed);
}

/** A TLS host on 127.0.0.1 with `certificate`. */
export function rawTlsHost(certificate: Certificate, respond: Respond): Promise<RawHost> {
  const heads: string[] = [];
  const closed: Socket[] = [];
  const server = createTlsServer(
    { key: certificate.key, cert: certificate.cert },
    onRequest(respond, heads, closed),
  );
  return listening(server, heads, closed);
}

/** Writes `bytes` whole, or one byte per write (each written before the next), then ends. */
export async function deliver(socket: Socket, bytes: Buffer, bytewise: boolean): Promise<void> {
  socket.setNoDelay(true);
  if (!bytewise) {
    socket.end(bytes);
    return;
  }
  for (let at = 0; at < bytes.length && !socket.destroyed; at += 1) {
    await new Promise<void>((resolve) => socket.write(bytes.subarray(at, at + 1), () => resolve()));
  }
  socket.end();
}

export interface Certificate {
  readonly key: Buffer;
  readonly cert: Buffer;
  readonly name: string;
}

/** A self-signed certificate for `images.pictor.test`, made with openssl. */
export async function selfSigned(): Promise<Certificate> {
  const dir = await tempFolder('raw-tls');
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    const name = 'images.pictor.test';
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
        ...['-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${name}`],
        ...['-addext', `subjectAltName=DNS:${name}`],
      ],
      { stdio: 'ignore' },
    );
    return { key: await readFile(key), cert: await readFile(cert), name };
  } finally {
    await removeFolder(dir);
  }
}

/** Resolves once `check` is true, looking again after each turn of the event loop. */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
