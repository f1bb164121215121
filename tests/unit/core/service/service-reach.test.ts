/**
 * One fact of each service's reachability, from the calls the client makes anyway: a call that
 * could not reach its host while online (a refused connection on real loopback here) makes the
 * service's saved origin unreachable; the next answer, whatever its status, ends that; an abort
 * or an offline computer says nothing of the service. A call to another host than the saved
 * address (BFL polls the region that took the task) is told for the saved address: the transport
 * there carries BFL's own hosts to loopback servers, one of them stopped.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient, ServiceReach } from '../../../../electron/core/service';
import { FetchRejection } from '../../../../electron/ports/http';

/** BFL's own address, as a user saves it. */
const SAVED = 'https://api.bfl.ai';

let server: Server | null = null;
afterEach(async () => {
  const open = server;
  server = null;
  if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
});

/** Listens on `port` (0: one the OS picks), answering 503 to everything. */
async function listen(port = 0): Promise<string> {
  const started = createServer((_request, response) => response.writeHead(503).end());
  await new Promise<void>((resolve) => started.listen(port, '127.0.0.1', resolve));
  server = started;
  return `http://127.0.0.1:${String((started.address() as AddressInfo).port)}`;
}

async function stop(): Promise<void> {
  const open = server;
  server = null;
  open?.closeAllConnections();
  if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
}

describe('ServiceReach', () => {
  it('is unreachable after a refused connection and reachable at the next answer, told once each', async () => {
    const origin = await listen();
    const reach = new ServiceReach();
    const told: string[][] = [];
    reach.onDidChange((origins) => told.push(origins));
    const fetch = reach.watch((url, init) => globalThis.fetch(url, init), origin);
    expect((await fetch(`${origin}/v1/tasks/a`)).status).toBe(503);
    expect(told).toEqual([]);
    await stop();
    await expect(fetch(`${origin}/v1/tasks/a`)).rejects.toThrow();
    await expect(fetch(`${origin}/v1/tasks/b`)).rejects.toThrow();
    expect(reach.unreachable()).toEqual([origin]);
    await listen(Number(new URL(origin).port));
    // An error status is an answer: the service is there.
    expect((await fetch(`${origin}/v1/tasks/a`)).status).toBe(503);
    expect(reach.unreachable()).toEqual([]);
    expect(told).toEqual([[origin], []]);
  });

  it('says nothing of an aborted call or of one made while the computer is offline', async () => {
    const reach = new ServiceReach();
    const aborted = new AbortController();
    aborted.abort();
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const failing = reach.watch(() => Promise.reject(refused), 'http://127.0.0.1:9');
    await expect(failing('http://127.0.0.1:9/x', { signal: aborted.signal })).rejects.toBe(refused);
    expect(reach.unreachable()).toEqual([]);
    const offline = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('net::ERR_INTERNET_DISCONNECTED'), {
        code: 'ERR_INTERNET_DISCONNECTED',
      }),
    });
    const cut = reach.watch(() => Promise.reject(offline), 'http://127.0.0.1:9');
    await expect(cut('http://127.0.0.1:9/x')).rejects.toBe(offline);
    expect(reach.unreachable()).toEqual([]);
    await expect(failing('http://127.0.0.1:9/x')).rejects.toBe(refused);
    expect(reach.unreachable()).toEqual(['http://127.0.0.1:9']);
  });
});

describe('a time out', () => {
  /** A rejection as `fetch` gives it: a TypeError whose cause carries the transport's code. */
  const failed = (code: string, extra: Record<string, unknown> = {}) =>
    Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error(`${code} while asking`), { code, ...extra }),
    });

  it.each([
    ['undici: its connect timeout', failed('UND_ERR_CONNECT_TIMEOUT')],
    ['Node: the connect call timed out', failed('ETIMEDOUT', { syscall: 'connect' })],
    ['Chromium: the connection timed out', new Error('net::ERR_CONNECTION_TIMED_OUT')],
    [
      'the transport: nothing handed to a connection',
      new FetchRejection('unsent', failed('ETIMEDOUT')),
    ],
  ])('while connecting (nothing sent) is unreachable: %s', async (_name, error) => {
    const reach = new ServiceReach();
    await expect(reach.watch(() => Promise.reject(error), SAVED)(`${SAVED}/x`)).rejects.toBe(error);
    expect(reach.unreachable()).toEqual([SAVED]);
  });

  it.each([
    ['undici: no headers of an answer in time', failed('UND_ERR_HEADERS_TIMEOUT')],
    ['undici: the body stalled', failed('UND_ERR_BODY_TIMEOUT')],
    ['Chromium: a read timed out', new Error('net::ERR_TIMED_OUT')],
    [
      'the transport: written, then timed out',
      new FetchRejection('written', failed('ETIMEDOUT', { syscall: 'connect' })),
    ],
  ])('after the request was written (the task may exist) is not: %s', async (_name, error) => {
    const reach = new ServiceReach();
    await expect(reach.watch(() => Promise.reject(error), SAVED)(`${SAVED}/x`)).rejects.toBe(error);
    expect(reach.unreachable()).toEqual([]);
  });
});

describe("a service's calls to another host than its saved address", () => {
  const REGION = 'https://api.eu.bfl.ai';
  const credentials = { baseUrl: SAVED, key: 'bfl-key-reach-5512', keyFingerprint: 'acct' };
  const bfl = { ...credentials, provider: 'bfl' as const };
  const pollOnRegion = { taskId: 't-1', handles: { poll: `${REGION}/v1/get_result?id=t-1` } };

  /** A client whose transport carries BFL's saved host to `saved` and its region to `region`. */
  function clientOver(saved: string, region: string) {
    const reach = new ServiceReach();
    const carried = (url: string) => url.replace(SAVED, saved).replace(REGION, region);
    const fetch = (url: string, init?: RequestInit) => globalThis.fetch(carried(url), init);
    return { reach, client: new ServiceClient({ fetch, reach }) };
  }

  it('tells the saved origin unreachable when the region that took the task cannot be reached', async () => {
    const closed = await listen();
    await stop();
    const saved = await listen();
    const { reach, client } = clientOver(saved, closed);
    await expect(client.getTask(bfl, pollOnRegion)).rejects.toMatchObject({ kind: 'network' });
    expect(reach.unreachable()).toEqual([SAVED]);
    // The saved address answers (503 is an answer): the service is there again.
    await client.probeKey(bfl).catch(() => undefined);
    expect(reach.unreachable()).toEqual([]);
  });

  it("tells the saved origin reachable again at the region's answer", async () => {
    const closed = await listen();
    await stop();
    const region = await listen();
    const { reach, client } = clientOver(closed, region);
    await client.probeKey(bfl).catch(() => undefined);
    expect(reach.unreachable()).toEqual([SAVED]);
    await expect(client.getTask(bfl, pollOnRegion)).rejects.toMatchObject({ kind: 'server' });
    expect(reach.unreachable()).toEqual([]);
  });
});
