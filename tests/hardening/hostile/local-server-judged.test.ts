/**
 * Two ways the local-server gate judged wrongly, each on real sockets: another user's IPv6-only
 * `[::]` listener beside this user's `0.0.0.0` one on the same port made an IPv4 request to this
 * user's server refused (the kernel never hands IPv4 to an IPv6-only socket, and prefers an IPv4
 * socket on the wildcard to a dual-stack one: core/service/local-owner.ts reads listeners in that
 * order); and a resolver slower than the gate's 3 s wait let a plain-http request go unjudged (its
 * transport's own lookup could answer this computer a moment later): it is refused, saying so.
 */
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gatedTransports } from '../../../electron/core/download';
import { readSocketTables, type SocketTables } from '../../../electron/core/service/local-owner';
import { ServiceError } from '../../../electron/core/service';
import { sendJson, startServer } from '../../support/http-servers';

const KEY = 'sk-judged-wrongly-key-9a41be';
const OTHER_UID = 4242;
const ONLY_LINUX = process.platform !== 'linux';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function refusal(sent: Promise<unknown>): Promise<void> {
  const error = await sent.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).sentence?.key).toBe('error.service.localServerOtherUser');
  expect(JSON.stringify(error)).not.toContain(KEY);
}

describe.skipIf(ONLY_LINUX)('a resolver that does not answer in time (Linux)', () => {
  it.each([true, false])(
    'refuses the request, saying so, instead of sending it unjudged (pinned: %s)',
    async (pinLocalServers) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      cleanups.push(async () => vi.useRealTimers());
      const host = vi.fn<(url: string) => Promise<Response>>();
      const { fetch } = gatedTransports(
        {
          fetch: host,
          pinLocalServers,
          localServers: { tables: readSocketTables, resolve: () => new Promise(() => undefined) },
        },
        () => [],
      );
      const sent = fetch('http://slow-lookup.test:8188/v1/tasks', {
        headers: { authorization: `Bearer ${KEY}` },
      }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      await vi.advanceTimersByTimeAsync(3_000);
      const error = await sent;
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).sentence?.key).toBe('error.service.localLookupSlow');
      expect((error as ServiceError).sentence?.params).toEqual({ host: 'slow-lookup.test' });
      expect((error as ServiceError).mayHaveReachedService).toBe(false);
      expect(host).not.toHaveBeenCalled();
    },
  );
});

/** The tables with `port`'s IPv6 rows made `uid`'s (its IPv4 ones left as they are). */
function ipv6OwnedBy(tables: SocketTables, port: number, uid: number): SocketTables {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')} `;
  const tcp6 =
    tables.tcp6
      ?.split('\n')
      .map((line) =>
        line.includes(hexPort) ? line.replace(/^(\s*\d+:(?:\s+\S+){6}\s+)\d+/, `$1${uid}`) : line,
      )
      .join('\n') ?? null;
  return { tcp: tables.tcp, tcp6 };
}

describe.skipIf(ONLY_LINUX)(
  'another user’s IPv6-only [::] beside this user’s 0.0.0.0 (Linux)',
  () => {
    it.each([true, false])(
      'does not stop an IPv4 request to this user’s server (pinned: %s)',
      async (pinLocalServers) => {
        const ours = await startServer((_req, res) => sendJson(res, 200, { ok: true }), {
          host: '0.0.0.0',
        });
        cleanups.push(() => ours.close());
        const held = new Set<Socket>();
        const theirs = createTcpServer(
          (socket) => void held.add(socket.on('error', () => undefined)),
        );
        const took = await new Promise<boolean>((resolve) => {
          theirs.once('error', () => resolve(false));
          theirs.listen({ host: '::', port: ours.port, ipv6Only: true }, () => resolve(true));
        });
        if (!took) {
          console.warn('skipped: this host cannot listen on [::] beside 0.0.0.0');
          return;
        }
        cleanups.push(() => {
          for (const socket of held) socket.destroy();
          return new Promise((done) => theirs.close(done));
        });
        const tables = async () => ipv6OwnedBy(await readSocketTables(), ours.port, OTHER_UID);
        const { fetch: sent } = gatedTransports(
          { fetch: (url, init) => fetch(url, init), pinLocalServers, localServers: { tables } },
          () => [],
        );
        const answer = await sent(`http://127.0.0.1:${ours.port}/`, {});
        expect(answer.status).toBe(200);
        expect(ours.requests).toHaveLength(1);
        // Over IPv6 the request reaches theirs: refused.
        await refusal(sent(`http://[::1]:${ours.port}/`, {}));
      },
    );
  },
);
