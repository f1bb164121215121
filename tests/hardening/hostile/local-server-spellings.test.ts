/**
 * The local-server gate (core/service/local-server-gate.ts) against every spelling that connects
 * to this computer: the listener judged must be the one at the address the connection reaches
 * (core/service/local-reach.ts), not the name written. A URL spelt `0.0.0.0`, `[::]`, `0` or
 * `[::ffff:0.0.0.0]` (Linux connects those to loopback), a plain-http name a hosts file or DNS answers with
 * 127.x or ::1, this computer's own LAN address, and a download pinned to one of those were
 * not judged at all: another user's server there got the request and its key.
 *
 * A real squatter on this computer records every connection; its rows in the real socket tables are
 * made another user's (the fault the test injects); requests go through the real fetch (and the
 * pinned transport image downloads use). A DNS answer pointing at this computer is injected as the
 * gate's resolver (the test may not edit /etc/hosts).
 */
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../electron/core/download';
import { readSocketTables } from '../../../electron/core/service/local-owner';
import {
  checkLocalServer,
  guardLocalServers,
  guardPinnedLocalServers,
  type LocalServerGate,
} from '../../../electron/core/service/local-server-gate';
import { ServiceError } from '../../../electron/core/service';
import type { ResolvedAddress } from '../../../electron/ports/http';
import { sendJson, startServer, type TestServer } from '../../support/http-servers';
import { ownedBy } from '../support/owned-tables';

const KEY = 'sk-spelt-otherwise-key-51c0de';
const OTHER_UID = 4242;
const linux = process.platform === 'linux';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function squatter(host: string): Promise<TestServer> {
  const server = await startServer((_req, res) => sendJson(res, 200, { id: 'task-1' }), { host });
  cleanups.push(() => server.close());
  return server;
}

/** The gate with `server`'s sockets another user's (unless `ours`), nothing allowed unless said. */
function gateOf(server: TestServer, more: Partial<LocalServerGate> & { ours?: boolean } = {}) {
  const { ours = false, ...rest } = more;
  return {
    allowed: () => [],
    tables: async () =>
      ours ? readSocketTables() : ownedBy(await readSocketTables(), server.port, OTHER_UID),
    ...rest,
  } satisfies LocalServerGate;
}

const send = (url: string, gate: LocalServerGate) =>
  guardLocalServers((to, init) => fetch(to, init), gate)(url, {
    headers: { authorization: `Bearer ${KEY}` },
  });

async function refusedNaming(sent: Promise<unknown>, address: string): Promise<void> {
  const error = await sent.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  const said = (error as ServiceError).sentence;
  expect(said?.key).toBe('error.service.localServerOtherUser');
  expect(said?.params).toMatchObject({ address, user: expect.stringContaining(`${OTHER_UID}`) });
  expect(JSON.stringify(error)).not.toContain(KEY);
}

/** This computer's first non-loopback IPv4 address, if it has one. */
function lanAddress(): string | null {
  const all = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []);
  return all.find((entry) => entry.family === 'IPv4' && !entry.internal)?.address ?? null;
}

describe.runIf(linux)(
  'another user’s server on every IPv4 address, reached by any spelling',
  () => {
    it.each([
      ['127.1', '127.0.0.1'],
      ['0x7f000001', '127.0.0.1'],
      ['2130706433', '127.0.0.1'],
      ['127.0.0.2', '127.0.0.2'],
      ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
      ['localhost.', 'localhost.'],
      ['LOCALHOST', 'localhost'],
      ['0.0.0.0', '127.0.0.1'],
      ['0', '127.0.0.1'],
      ['[::ffff:0.0.0.0]', '127.0.0.1'],
    ])('http://%s: refused, nothing sent, the address reached named', async (host, named) => {
      const server = await squatter('0.0.0.0');
      await refusedNaming(
        send(`http://${host}:${server.port}/v1/x`, gateOf(server)),
        `${named}:${server.port}`,
      );
      expect(server.connections()).toBe(0);
    });

    it('this computer’s own LAN address: refused like loopback', async (context) => {
      const lan = lanAddress();
      if (lan === null) {
        console.log('skipped: this computer has no non-loopback IPv4 address');
        context.skip();
        return;
      }
      const server = await squatter('0.0.0.0');
      await refusedNaming(
        send(`http://${lan}:${server.port}/`, gateOf(server)),
        `${lan}:${server.port}`,
      );
      expect(server.connections()).toBe(0);
    });

    it('a name the resolver answers with loopback: refused, naming the address it reaches', async () => {
      const server = await squatter('0.0.0.0');
      const asked: string[] = [];
      const resolve = async (host: string): Promise<readonly ResolvedAddress[]> => {
        asked.push(host);
        return [
          { address: '203.0.113.9', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ];
      };
      const url = `http://comfy.example:${server.port}/prompt`;
      await refusedNaming(send(url, gateOf(server, { resolve })), `127.0.0.1:${server.port}`);
      expect(asked).toEqual(['comfy.example']);
      expect(server.connections()).toBe(0);
    });

    it('a download pinned to an address of this computer: refused whatever the name', async () => {
      const server = await squatter('0.0.0.0');
      const pinned = guardPinnedLocalServers(createPinnedFetch(), gateOf(server));
      for (const address of ['0.0.0.0', '127.0.0.3', ...[lanAddress() ?? []].flat()]) {
        const at: ResolvedAddress = { address, family: 4 };
        await refusedNaming(
          pinned(`http://images.example:${server.port}/a.png`, {}, at),
          `${address === '0.0.0.0' ? '127.0.0.1' : address}:${server.port}`,
        );
      }
      expect(server.connections()).toBe(0);
    });

    it('an address allowed as reached lets a name that reaches it through', async () => {
      const server = await squatter('127.0.0.1');
      const allowed = () => [`127.0.0.1:${server.port}`];
      const pinned = guardPinnedLocalServers(createPinnedFetch(), gateOf(server, { allowed }));
      const at: ResolvedAddress = { address: '127.0.0.1', family: 4 };
      const answer = await pinned(`http://images.example:${server.port}/a.png`, {}, at);
      expect(answer.status).toBe(200);
      expect(server.requests).toHaveLength(1);
    });

    it('our own server by such a spelling, and a name that leaves this computer, go as before', async () => {
      const server = await squatter('0.0.0.0');
      const answer = await send(`http://0.0.0.0:${server.port}/`, gateOf(server, { ours: true }));
      expect(answer.status).toBe(200);
      let read = 0;
      const gate = {
        allowed: () => [],
        tables: async () => (
          (read += 1),
          ownedBy(await readSocketTables(), server.port, OTHER_UID)
        ),
        resolve: async () => [{ address: '203.0.113.9', family: 4 } as const],
      };
      await checkLocalServer(`http://api.example:${server.port}/v1/images`, gate);
      expect(read).toBe(0);
      // Over https a name is not resolved at all: TLS keeps a squatter from reading the request.
      const asked: string[] = [];
      const tls = { ...gate, resolve: async (host: string) => (asked.push(host), []) };
      await checkLocalServer(`https://api.example:${server.port}/v1/images`, tls);
      expect(asked).toEqual([]);
    });
  },
);

describe.runIf(linux)('another user’s dual-stack server on [::]', () => {
  it.each([
    ['[::]', '[::1]'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
    ['[::ffff:7f00:1]', '[::ffff:7f00:1]'],
  ])('http://%s: refused, nothing sent', async (host, named) => {
    const server = await squatter('::');
    await refusedNaming(
      send(`http://${host}:${server.port}/`, gateOf(server)),
      `${named}:${server.port}`,
    );
    expect(server.connections()).toBe(0);
  });

  it('a name the resolver answers with ::1: refused', async () => {
    const server = await squatter('::');
    const resolve = async () => [{ address: '::1', family: 6 } as const];
    const url = `http://comfy.example:${server.port}/`;
    await refusedNaming(send(url, gateOf(server, { resolve })), `[::1]:${server.port}`);
    expect(server.connections()).toBe(0);
  });
});
