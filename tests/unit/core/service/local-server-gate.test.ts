/**
 * The allow list of other users' loopback servers (settings' `allowedLocalServers`): each entry
 * kept as `host:port` whatever the spelling, anything that is not a loopback server's address
 * refused by main's check of the setting, and the gate's decision for each kind of owner.
 */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../electron/core/service';
import {
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
});
