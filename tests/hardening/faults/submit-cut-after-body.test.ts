/**
 * A submit whose body went out, then Chromium failed it: the machine lost its network, changed it,
 * went to sleep, or the route went away while the service was reading or working on it. Chromium
 * gives an open connection's failure the words it also gives a request that never connected
 * (`net::ERR_INTERNET_DISCONNECTED` is the socket's ENETDOWN too, `net::ERR_ADDRESS_UNREACHABLE`
 * its EHOSTUNREACH), and the service client read those words as "nothing was sent": the task ended
 * `submit_failed`, and the user, told so, could send it again and pay twice. Once bytes of the
 * body were handed off, the outcome is unknown (`submit_unknown`), whatever the words; a request
 * that fails before anything went (no network at all when it starts) still says "not sent".
 *
 * Main's own adapter (adapters/electron-net-fetch.ts) over the stand-in of Electron's `net`
 * (tests/support/node-http-net.ts: `failAll` raises Chromium's error on every request out, and
 * `offline` fails each new one as it starts), both kinds of body (a whole JSON body, its progress
 * reported as Chromium reports it; a streamed one, written a piece at a time), through the service
 * client's last step (send-request.ts) and the real engine against the demo service on loopback.
 * The CLI's fetch (undici) is checked for the same class: a connection reset once the service read
 * the body is "may have reached", whole or streamed (it watches its connection: node-fetch.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAnswer } from '../../../electron/core/service/send-request';
import { ServiceError } from '../../../electron/core/service/service-error';
import { providerRig } from '../../integration/providers/provider-harness';
import { submitOne } from '../../integration/providers/provider-scenarios';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { closeServers } from '../../support/http-servers';
import { dropAfterRequestServer } from '../../support/unsent-servers';
import { createMainNet, type MainNet } from '../../support/node-http-net';

const WAIT_WITHIN = { timeout: 15_000, interval: 5 };

/** Chromium's words for a request failed on an open connection, some also said before connecting. */
const AFTER_THE_BODY = [
  'net::ERR_INTERNET_DISCONNECTED',
  'net::ERR_ADDRESS_UNREACHABLE',
  'net::ERR_NETWORK_CHANGED',
  'net::ERR_NETWORK_IO_SUSPENDED',
  'net::ERR_CONNECTION_RESET',
] as const;

/** Chromium's words for a request started with no network: nothing can have gone. */
const BEFORE_ANYTHING = ['net::ERR_INTERNET_DISCONNECTED', 'net::ERR_ADDRESS_UNREACHABLE'] as const;

const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close();
  await closeServers();
});

/** A service that reads every body whole and never answers; what it read, by request. */
async function readingService(): Promise<{ url: string; bodies: number[] }> {
  const bodies: number[] = [];
  const server = createServer((request) => {
    let bytes = 0;
    request.on('data', (piece: Buffer) => (bytes += piece.length));
    request.on('end', () => bodies.push(bytes));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  servers.push(async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

const BODY_BYTES = 300_000;

type BodyKind = 'whole' | 'streamed';

/** A submit's body of {@link BODY_BYTES}: one string, or a stream of 64 KiB pieces. */
function bodyOf(kind: BodyKind): RequestInit['body'] {
  const text = `{"prompt":"${'a'.repeat(BODY_BYTES - 13)}"}`;
  if (kind === 'whole') return text;
  const bytes = Buffer.from(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65_536));
      at += 65_536;
    },
  });
}

/** The submit as the service client's last step sends it: its ServiceError, or null if answered. */
function submit(net: MainNet, url: string, kind: BodyKind): Promise<ServiceError | null> {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: bodyOf(kind),
    redirect: 'manual' as const,
    signal: new AbortController().signal,
  };
  return fetchAnswer(net.fetch, 'submit', `${url}/v1/images/generations`, init).then(
    () => null,
    (error: unknown) => {
      if (!(error instanceof ServiceError)) throw error;
      return error;
    },
  );
}

describe.each<BodyKind>(['whole', 'streamed'])('a %s body', (kind) => {
  it.each(AFTER_THE_BODY)(
    'read by the service, then %s: the outcome is unknown, never "not sent"',
    async (netError) => {
      const service = await readingService();
      const net = createMainNet();
      const outcome = submit(net, service.url, kind);
      await vi.waitFor(() => {
        expect(service.bodies).toEqual([BODY_BYTES]);
        expect(net.sentNow()).toBe(1);
      }, WAIT_WITHIN);
      expect(net.failAll(netError)).toBe(1);
      const error = await outcome;
      expect(error?.mayHaveReachedService).toBe(true);
      expect(error?.detail).toContain(netError.slice('net::'.length));
    },
  );

  it.each(BEFORE_ANYTHING)(
    'started with no network (%s): not sent, and the service got nothing',
    async (netError) => {
      const service = await readingService();
      const net = createMainNet();
      net.offline(netError);
      const error = await submit(net, service.url, kind);
      expect(error?.mayHaveReachedService).toBe(false);
      expect(service.bodies).toEqual([]);
    },
  );
});

describe("the CLI's fetch (undici), its connection reset once it read the body", () => {
  it.each<BodyKind>(['whole', 'streamed'])('a %s body: the outcome is unknown', async (kind) => {
    const place = await dropAfterRequestServer();
    servers.push(() => place.close());
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(BODY_BYTES) },
      body: bodyOf(kind),
      redirect: 'manual' as const,
      signal: new AbortController().signal,
    };
    const url = `${place.origin}/v1/images/generations`;
    const error = await fetchAnswer(createNodeFetch({}), 'submit', url, init).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(place.received).toEqual(['POST /v1/images/generations']);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).mayHaveReachedService).toBe(true);
  });
});

describe('the engine', () => {
  async function rigWith(net: MainNet) {
    const rig = await providerRig('pictor', {}, { pollIntervalMs: 3_000 }, { fetch: net.fetch });
    rig.core.engine.start();
    return rig;
  }
  const submits = (rig: Awaited<ReturnType<typeof rigWith>>) =>
    rig.service.log.requests.filter((entry) => entry.route === 'submit');

  it('a submit cut by net::ERR_INTERNET_DISCONNECTED after its body went: submit_unknown, never sent again', async () => {
    const net = createMainNet();
    const rig = await rigWith(net);
    rig.service.addFault({ route: 'submit', effect: { type: 'hang' }, times: 1 });
    const localId = await submitOne(rig, 'a harbour at night');
    await vi.waitFor(() => {
      expect(submits(rig)).toHaveLength(1);
      expect(net.sentNow()).toBe(1);
    }, WAIT_WITHIN);
    expect(net.failAll('net::ERR_INTERNET_DISCONNECTED')).toBe(1);
    await rig.drive(() => rig.stored(localId).status !== 'submitting');
    const record = rig.stored(localId);
    expect(record.status).toBe('submit_unknown');
    expect(record.taskId).toBeNull();
    // Time passes: the engine never sends it again on its own.
    await rig.clock.advance(60_000);
    expect(rig.stored(localId).status).toBe('submit_unknown');
    expect(submits(rig)).toHaveLength(1);
  });

  it('a submit started with no network: submit_failed, and the service got nothing', async () => {
    const net = createMainNet();
    const rig = await rigWith(net);
    net.offline('net::ERR_INTERNET_DISCONNECTED');
    const localId = await submitOne(rig, 'a harbour at night');
    await rig.drive(() => rig.stored(localId).status !== 'submitting');
    expect(rig.stored(localId).status).toBe('submit_failed');
    expect(submits(rig)).toHaveLength(0);
  });
});
