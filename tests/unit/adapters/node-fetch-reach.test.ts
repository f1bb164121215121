/**
 * The CLI's fetch says how far each failed request got, from what undici did with it, not from
 * its codes: the same ECONNRESET is `unsent` when the TLS handshake was cut and `written` when the
 * connection dropped after the request was read. An abort comes back as it was.
 */
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { FetchRejection } from '../../../electron/ports/http';
import { closedPort } from '../../support/http-servers';
import {
  dropAfterRequestServer,
  plainServer,
  selfSignedCertificate,
  selfSignedServer,
  type LoopbackPlace,
} from '../../support/unsent-servers';

const places: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(places.splice(0).map((place) => place.close()));
});

async function track(place: Promise<LoopbackPlace>): Promise<LoopbackPlace> {
  const started = await place;
  places.push(started);
  return started;
}

async function rejection(url: string, init: RequestInit = {}): Promise<FetchRejection> {
  const error: unknown = await createNodeFetch({})(url, {
    method: 'POST',
    body: '{}',
    ...init,
  }).then(
    () => new Error('answered'),
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(FetchRejection);
  return error as FetchRejection;
}

/** A TLS server that cuts every connection during its handshake. */
async function handshakeCutter(): Promise<string> {
  const server: TlsServer = createTlsServer(await selfSignedCertificate());
  server.on('connection', (socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  places.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('how far a failed request got', () => {
  it('a refused connection: unsent', async () => {
    const error = await rejection(`http://127.0.0.1:${await closedPort()}/`);
    expect(error.reach).toBe('unsent');
  });

  it('a bad port: unsent', async () => {
    expect((await rejection('http://127.0.0.1:6000/')).reach).toBe('unsent');
  });

  it('a name that does not resolve: unsent', async () => {
    expect((await rejection('https://api.pictor-test.invalid/')).reach).toBe('unsent');
  });

  it('a certificate nobody trusts: unsent, and nothing reached the server', async () => {
    const place = await track(selfSignedServer());
    expect((await rejection(`${place.origin}/`)).reach).toBe('unsent');
    expect(place.received).toEqual([]);
  });

  it('https to a plain-http port: unsent', async () => {
    const place = await track(plainServer());
    expect((await rejection(`https://127.0.0.1:${place.port}/`)).reach).toBe('unsent');
    expect(place.received).toEqual([]);
  });

  it('a connection reset in the TLS handshake: unsent', async () => {
    const error = await rejection(await handshakeCutter());
    expect(error.reach).toBe('unsent');
    // A code that also ends connections after a request was written: the reach decides.
    expect((error.cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
  });

  it('a connection dropped after the request was read: written', async () => {
    const place = await track(dropAfterRequestServer());
    expect((await rejection(`${place.origin}/v1/images/generations`)).reach).toBe('written');
    expect(place.received).toEqual(['POST /v1/images/generations']);
  });

  it('an abort is not wrapped', async () => {
    const place = await track(dropAfterRequestServer());
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const error = await createNodeFetch({})(`${place.origin}/`, { signal: controller.signal }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBe(reason);
  });
});
