/**
 * Who listens at a loopback address, read from Linux's socket tables (local-owner.ts): the parser
 * on rows as the kernel writes them (IPv4, IPv6, IPv4-mapped, both byte orders), which sockets a
 * connection may reach (the address's own before a wildcard), and the real tables with a real
 * listener of this process, on each loopback address it can take.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connectionOwner,
  listenerOwners,
  parseListeners,
  readSocketTables,
} from '../../../../electron/core/service/local-owner';

const TCP_HEADER =
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
const TCP6_HEADER =
  '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';

/** A row as the kernel writes it: the local address and port in hex, a state, a uid. */
function row(local: string, state: string, uid: number, remote = '00000000:0000'): string {
  return `   0: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000  ${uid}        0 1106 1 0000000043fd6b3a 100 0 0 10 0`;
}

const TCP = [
  TCP_HEADER,
  row('00000000:07E8', '0A', 0),
  row('0100007F:1FFC', '0A', 1001),
  // Connections on the same port: not listeners.
  row('0100007F:1FFC', '01', 1002, '0100007F:C8DC'),
  row('0100007F:A3C5', '06', 1003, '0100007F:A064'),
  'garbage line',
  '',
].join('\n');

const TCP6 = [
  TCP6_HEADER,
  row('00000000000000000000000001000000:1FFC', '0A', 1004),
  row('0000000000000000FFFF00000100007F:2000', '0A', 1005),
  row('00000000000000000000000000000000:2001', '0A', 1006),
].join('\n');

describe('the socket tables parsed', () => {
  it('reads IPv4 listeners in host byte order, skipping connections and other lines', () => {
    expect(parseListeners(TCP, true)).toEqual([
      { address: '0.0.0.0', port: 2024, uid: 0 },
      { address: '127.0.0.1', port: 8188, uid: 1001 },
    ]);
  });

  it('reads a big-endian host’s words as they are', () => {
    expect(parseListeners(row('7F000001:1FFC', '0A', 7), false)).toEqual([
      { address: '127.0.0.1', port: 8188, uid: 7 },
    ]);
    expect(
      parseListeners(row('0000000000000000000000000000000000000001:1', '0A', 7), false),
    ).toEqual([]);
  });

  it('reads IPv6 listeners in the URL parser’s spelling: loopback, IPv4-mapped, wildcard', () => {
    expect(parseListeners(TCP6, true)).toEqual([
      { address: '[::1]', port: 8188, uid: 1004 },
      { address: '[::ffff:7f00:1]', port: 8192, uid: 1005 },
      { address: '[::]', port: 8193, uid: 1006 },
    ]);
  });

  it('skips rows whose fields are out of shape', () => {
    const bad = [
      row('0100007F:1FF', '0A', 1),
      row('0100007G:1FFC', '0A', 1),
      row('0100007F:1FFC', '0A', -1),
      row('0100007F:1FFC', '0', 1),
      row('0100007F:1FFC', '0A', 1).replace(/\s+\d+\s+0 1106/, ' x 0 1106'),
    ];
    expect(parseListeners(bad.join('\n'), true)).toEqual([]);
  });
});

describe('the owners a connection may reach', () => {
  const le = (tcp: string | null, tcp6: string | null = null) => ({ tcp, tcp6 });

  it('is the socket on the address itself when there is one, else a wildcard’s', () => {
    const both = [TCP_HEADER, row('00000000:1FFC', '0A', 50), row('0100007F:1FFC', '0A', 51)];
    expect(listenerOwners(le(both.join('\n')), '127.0.0.1', 8188)).toEqual([51]);
    expect(listenerOwners(le(both.join('\n')), '127.0.0.2', 8188)).toEqual([50]);
    expect(listenerOwners(le(TCP, TCP6), '127.0.0.1', 2024)).toEqual([0]);
  });

  it('counts an IPv4-mapped or dual-stack IPv6 socket for an IPv4 address', () => {
    expect(listenerOwners(le(TCP_HEADER, TCP6), '127.0.0.1', 8192)).toEqual([1005]);
    expect(listenerOwners(le(TCP_HEADER, TCP6), '127.0.0.1', 8193)).toEqual([1006]);
    expect(listenerOwners(le(TCP_HEADER, TCP6), '[::ffff:7f00:1]', 8192)).toEqual([1005]);
  });

  it('takes an IPv4 socket on the wildcard before an IPv6-only `[::]` beside it', () => {
    // This user's ComfyUI on 0.0.0.0, another user's IPv6-only [::] on the same port: an IPv4
    // connection reaches only the first (an IPv6-only socket never takes IPv4).
    const ours = [TCP_HEADER, row('00000000:1FFC', '0A', 50)].join('\n');
    const theirs = [TCP6_HEADER, row('00000000000000000000000000000000:1FFC', '0A', 60)].join('\n');
    expect(listenerOwners(le(ours, theirs), '127.0.0.1', 8188)).toEqual([50]);
    expect(listenerOwners(le(ours, theirs), '[::1]', 8188)).toEqual([60]);
    expect(listenerOwners(le(ours, theirs), 'localhost', 8188)).toEqual([50, 60]);
    // Alone, a [::] may be dual-stack: it is reached.
    expect(listenerOwners(le(TCP_HEADER, theirs), '127.0.0.1', 8188)).toEqual([60]);
    // The address's IPv4 socket before an IPv4-mapped one on it.
    const mapped = [TCP6_HEADER, row('0000000000000000FFFF00000100007F:1FFC', '0A', 70)];
    const exact = [TCP_HEADER, row('0100007F:1FFC', '0A', 51)].join('\n');
    expect(listenerOwners(le(exact, mapped.join('\n')), '127.0.0.1', 8188)).toEqual([51]);
  });

  it('judges both families for a localhost name', () => {
    expect(listenerOwners(le(TCP, TCP6), 'localhost', 8188)).toEqual([1001, 1004]);
    expect(listenerOwners(le(TCP, TCP6), 'api.localhost.', 8188)).toEqual([1001, 1004]);
    expect(listenerOwners(le(TCP, TCP6), '[::1]', 8188)).toEqual([1004]);
  });

  it('is none when nothing listens there, unknown when no table can be read', () => {
    expect(listenerOwners(le(TCP, TCP6), '127.0.0.1', 9999)).toEqual([]);
    expect(listenerOwners(le(null, null), '127.0.0.1', 8188)).toBeNull();
    expect(listenerOwners(le(null, TCP6), '[::1]', 8188)).toEqual([1004]);
  });
});

describe('the owner of a connection', () => {
  // 127.0.0.1:51420 connected to 127.0.0.1:8188: our row, and the server's (local and remote
  // swapped) whose uid is the listener's that took it.
  const tables = (serverUid: number, state = '01') => ({
    tcp: [
      TCP_HEADER,
      row('0100007F:1FFC', '0A', 1001),
      row('0100007F:C8DC', '01', 1000, '0100007F:1FFC'),
      row('0100007F:1FFC', state, serverUid, '0100007F:C8DC'),
      row('0100007F:1FFC', '01', 1003, '0100007F:C8DD'),
    ].join('\n'),
    tcp6: null,
  });
  const from = { address: '127.0.0.1', port: 51420 };
  const to = { address: '127.0.0.1', port: 8188 };

  it('is the uid of the server’s end of that very connection, queued or accepted', () => {
    expect(connectionOwner(tables(4242), from, to)).toBe(4242);
    expect(connectionOwner(tables(4243, '03'), from, to)).toBe(4243);
    expect(connectionOwner(tables(4242), { ...from, port: 51421 }, to)).toBe(1003);
  });

  it('is found in IPv6 rows of a dual-stack server, by the IPv4 it saw', () => {
    const tcp6 = [
      TCP6_HEADER,
      row(
        '0000000000000000FFFF00000100007F:1FFC',
        '01',
        77,
        '0000000000000000FFFF00000100007F:C8DC',
      ),
    ].join('\n');
    expect(connectionOwner({ tcp: TCP_HEADER, tcp6 }, from, to)).toBe(77);
    expect(connectionOwner({ tcp: TCP_HEADER, tcp6 }, from, { ...to, port: 8189 })).toBeNull();
  });

  it('is unknown when its row says nothing: uid 0 on a socket no process holds', () => {
    // Closed, TIME_WAIT, or (before Linux 6.16) queued for accept: uid 0, inode 0.
    const held = tables(0).tcp.replace(/(\s0)(\s+0) 1106 /g, '$1$2 0 ');
    expect(connectionOwner({ tcp: held, tcp6: null }, from, to)).toBeNull();
    // Root's own socket (an inode) is root's.
    expect(connectionOwner(tables(0), from, to)).toBe(0);
  });

  it('is unknown when no row has it: a listener is not a connection', () => {
    const listenerOnly = {
      tcp: [TCP_HEADER, row('0100007F:1FFC', '0A', 1001)].join('\n'),
      tcp6: null,
    };
    expect(connectionOwner(listenerOnly, from, to)).toBeNull();
  });

  it('is read from the rows at its port alone, not from every socket of a busy host', () => {
    // 6,000 IPv6 connections (each address parsed by the URL parser when read): 2,000 clients of
    // the server's port (it is their remote end), 2,000 the server took from others (its port
    // their local end), in TIME_WAIT, and 2,000 elsewhere; the server's end of ours in lower-case
    // hex among them.
    const ends = (at: number) => {
      const port = (0x3000 + at).toString(16).toUpperCase();
      if (at % 3 === 0) return [port, '1FFC'];
      return at % 3 === 1 ? ['1FFC', port] : [port, 'C000'];
    };
    const others = Array.from({ length: 6000 }, (_, at) => {
      const [local, remote] = ends(at);
      return row(
        `0000000000000000FFFF00000100007F:${local}`,
        at % 2 === 0 ? '06' : '01',
        2000,
        `0000000000000000FFFF00000100007F:${remote}`,
      );
    });
    const tcp6 = [
      TCP6_HEADER,
      ...others.slice(0, 3000),
      row(
        '0000000000000000ffff00000100007f:1ffc',
        '01',
        78,
        '0000000000000000ffff00000100007f:c8dc',
      ),
      row(
        '0000000000000000FFFF00000100007F:C8DC',
        '01',
        1000,
        '0000000000000000FFFF00000100007F:1FFC',
      ),
      ...others.slice(3000),
    ].join('\n');
    const parse = vi.spyOn(URL, 'parse');
    try {
      expect(connectionOwner({ tcp: TCP_HEADER, tcp6 }, from, to)).toBe(78);
      expect(listenerOwners({ tcp: TCP_HEADER, tcp6 }, '127.0.0.1', 8188)).toEqual([]);
      // The server's end of ours and the spellings compared: not 12,000.
      expect(parse.mock.calls.length).toBeLessThan(40);
    } finally {
      parse.mockRestore();
    }
  });
});

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

async function listen(host: string): Promise<number | null> {
  const server = createServer();
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, host, () => resolve(true));
  });
  if (!ok) return null;
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

describe.runIf(process.platform === 'linux')('this host’s tables (Linux)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '[::1]'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
  ])('find a listener of this process on %s, owned by this user', async (host, urlHost) => {
    const port = await listen(host);
    if (port === null) {
      // A host without IPv6 cannot take the address at all: said, not passed in silence.
      console.warn(`skipped: this host cannot listen on ${host}`);
      return;
    }
    const owners = listenerOwners(await readSocketTables(), urlHost, port);
    expect(owners).toEqual([process.getuid?.()]);
  });
});
