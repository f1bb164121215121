/**
 * The allow list of other users' loopback servers (settings' `allowedLocalServers`): each entry
 * kept as `host:port` whatever the spelling, anything that is not a loopback server's address
 * refused by main's check of the setting, and the gate's decision for each kind of owner.
 */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../electron/core/service';
import type { SocketTableName, SocketTables } from '../../../../electron/core/service/local-owner';
import {
  checkConnection,
  checkLocalServer,
  localServerAddress,
} from '../../../../electron/core/service/local-server-gate';
import { checkField } from '../../../../electron/core/settings/settings-fields';

describe('an allowed local server’s address', () => {
  it.each([
    ['127.0.0.1:8188', '127.0.0.1:8188'],
    [' 127.0.0.1:8188 ', '127.0.0.1:8188'],
    ['http://127.0.0.1:8188', '127.0.0.1:8188'],
    ['http://127.0.0.1:8188/', '127.0.0.1:8188'],
    ['HTTP://LOCALHOST:8188', 'localhost:8188'],
    ['http://localhost', 'localhost:80'],
    ['https://localhost', 'localhost:443'],
    ['[::1]:8188', '[::1]:8188'],
    ['[0:0::1]:8188', '[::1]:8188'],
    ['127.1:8188', '127.0.0.1:8188'],
    ['0x7f.0.0.2:8188', '127.0.0.2:8188'],
    ['[::ffff:127.0.0.1]:8188', '[::ffff:7f00:1]:8188'],
  ])('%j is kept as %j', (text, kept) => {
    expect(localServerAddress(text)).toBe(kept);
  });

  it.each([
    '',
    '127.0.0.1',
    'localhost',
    '8188',
    '10.0.0.2:8188',
    '0.0.0.0:8188',
    '[::]:8188',
    'example.com:8188',
    '127.0.0.1:8188/path',
    '127.0.0.1:8188?x=1',
    '127.0.0.1:8188#x',
    'user:pass@127.0.0.1:8188',
    'ftp://127.0.0.1:8188',
    'file:///etc/passwd',
    '127.0.0.1:99999',
    '127.0.0.1:8188\n127.0.0.1:8189',
    '127.0.0.1:81\t88',
    '127.0.0.1 :8188',
  ])('%j is refused', (text) => {
    expect(localServerAddress(text)).toBeNull();
  });
});

describe('the setting, as main checks it', () => {
  it('keeps each address once in its kept spelling', () => {
    expect(
      checkField('allowedLocalServers', ['http://127.0.0.1:8188', '127.0.0.1:8188', '[::1]:9']),
    ).toEqual({ ok: true, value: ['127.0.0.1:8188', '[::1]:9'] });
  });

  it('refuses the whole list with its rule when one entry is not a loopback server', () => {
    for (const value of [
      ['127.0.0.1:8188', 'evil.example:443'],
      'x',
      [1],
      Array(33).fill('127.0.0.1:1'),
    ]) {
      const checked = checkField('allowedLocalServers', value);
      expect(checked.ok).toBe(false);
      if (!checked.ok) {
        expect(checked.said).toMatchObject({ key: 'error.settings.ruleLocalServers' });
      }
    }
  });
});

describe('the gate', () => {
  const tables = (uid: number) => async () => ({
    tcp: `  sl  local\n   0: 0100007F:1FFC 00000000:0000 0A 00000000:00000000 00:00000000 00000000  ${uid}        0 1 1\n`,
    tcp6: null,
  });
  const base = { allowed: () => [], ownUid: 1000, userName: async () => 'comfy' };

  it('refuses another user’s server, naming the address and the user', async () => {
    const refusal = await checkLocalServer('http://127.0.0.1:8188/v1/x', {
      ...base,
      tables: tables(1001),
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    expect((refusal as ServiceError).sentence).toMatchObject({
      key: 'error.service.localServerOtherUser',
      params: { address: '127.0.0.1:8188', user: 'comfy, uid 1001' },
    });
  });

  it('lets through this user’s server, an allowed one, an unknown owner, a public host', async () => {
    await checkLocalServer('http://127.0.0.1:8188/', { ...base, tables: tables(1000) });
    await checkLocalServer('http://127.0.0.1:8188/', {
      ...base,
      allowed: () => ['127.0.0.1:8188'],
      tables: tables(1001),
    });
    await checkLocalServer('http://127.0.0.1:8188/', {
      ...base,
      tables: async () => ({ tcp: null, tcp6: null }),
    });
    await checkLocalServer('http://127.0.0.1:8188/', { ...base, ownUid: null, tables: tables(1) });
    let read = 0;
    const counted = async () => ((read += 1), { tcp: null, tcp6: null });
    await checkLocalServer('https://api.example.com/', { ...base, tables: counted });
    expect(read).toBe(0);
  });

  it('reads the IPv6 table only when the IPv4 one does not say who owns it', async () => {
    // Each read of either table walks the kernel's whole socket hash (an empty tcp6 as much).
    const asked: string[] = [];
    const recorded = (given: SocketTables) => async (names?: readonly SocketTableName[]) => {
      asked.push((names ?? ['tcp', 'tcp6']).join('+'));
      return given;
    };
    const listenRow = (local: string, uid: number) =>
      `   0: ${local}:1FFC ${'0'.repeat(local.length)}:0000 0A 00000000:00000000 00:00000000 00000000  ${uid}        0 1 1`;
    const serverEnd = (local: string, remote: string, uid: number) =>
      `   1: ${local}:1FFC ${remote}:C8DC 01 00000000:00000000 00:00000000 00000000  ${uid}        0 2 1`;
    const v4 = '0100007F';
    const mapped = '0000000000000000FFFF00000100007F';
    const refused = (promise: Promise<void>) =>
      promise.then(
        () => 'sent',
        (error: unknown) => (error instanceof ServiceError ? 'refused' : error),
      );
    const socket = {
      localAddress: '127.0.0.1',
      localPort: 0xc8dc,
      remoteAddress: '127.0.0.1',
      remotePort: 8188,
    };
    const url = 'http://127.0.0.1:8188/v1/x';
    // Another user's listener on the address itself, its connection's end: the IPv4 table alone.
    const inV4 = { tcp: `h\n${listenRow(v4, 1001)}\n${serverEnd(v4, v4, 1001)}\n`, tcp6: null };
    expect(await refused(checkLocalServer(url, { ...base, tables: recorded(inV4) }))).toBe(
      'refused',
    );
    expect(await refused(checkConnection(url, socket, { ...base, tables: recorded(inV4) }))).toBe(
      'refused',
    );
    expect(asked.splice(0)).toEqual(['tcp', 'tcp']);
    // A dual-stack server of another user: the IPv6 table is read and it is refused all the same.
    const inV6 = {
      tcp: 'h\n',
      tcp6: `h\n${listenRow('0'.repeat(32), 1001)}\n${serverEnd(mapped, mapped, 1001)}\n`,
    };
    expect(await refused(checkLocalServer(url, { ...base, tables: recorded(inV6) }))).toBe(
      'refused',
    );
    expect(await refused(checkConnection(url, socket, { ...base, tables: recorded(inV6) }))).toBe(
      'refused',
    );
    expect(asked.splice(0)).toEqual(['tcp', 'tcp+tcp6', 'tcp', 'tcp+tcp6']);
    // Ours, in the IPv4 table: sent, the IPv6 table unread.
    const ours = { tcp: `h\n${listenRow(v4, 1000)}\n${serverEnd(v4, v4, 1000)}\n`, tcp6: null };
    expect(await refused(checkLocalServer(url, { ...base, tables: recorded(ours) }))).toBe('sent');
    expect(await refused(checkConnection(url, socket, { ...base, tables: recorded(ours) }))).toBe(
      'sent',
    );
    expect(asked.splice(0)).toEqual(['tcp', 'tcp']);
  });
});
