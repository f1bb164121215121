/**
 * One fact of each service's reachability, from the calls the client makes anyway: a call that
 * could not reach its origin while online (a refused connection on real loopback here) makes it
 * unreachable; the next answer from it, whatever its status, ends that; an abort or an offline
 * computer says nothing of the service.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceReach } from '../../../../electron/core/service';

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
    const fetch = reach.watch((url, init) => globalThis.fetch(url, init));
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
    const failing = reach.watch(() => Promise.reject(refused));
    await expect(failing('http://127.0.0.1:9/x', { signal: aborted.signal })).rejects.toBe(refused);
    expect(reach.unreachable()).toEqual([]);
    const offline = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('net::ERR_INTERNET_DISCONNECTED'), {
        code: 'ERR_INTERNET_DISCONNECTED',
      }),
    });
    await expect(reach.watch(() => Promise.reject(offline))('http://127.0.0.1:9/x')).rejects.toBe(
      offline,
    );
    expect(reach.unreachable()).toEqual([]);
    await expect(failing('http://127.0.0.1:9/x')).rejects.toBe(refused);
    expect(reach.unreachable()).toEqual(['http://127.0.0.1:9']);
  });
});
