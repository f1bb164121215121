/**
 * Plain http carries the key in clear, so it is allowed only to hosts that reach this computer
 * without any resolver, hosts file, search domain or proxy bypass list having a say: loopback IP
 * literals and the name `localhost`. Every other spelling that merely looks local is refused.
 */
import { describe, expect, it } from 'vitest';
import {
  checkBaseUrl,
  isLocalhostName,
  isLoopbackByConstruction,
  isLoopbackHost,
} from '../../../../electron/core/service/url-policy';

describe('plain http base URLs', () => {
  it.each([
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.1:8080', 'http://127.0.0.1:8080'],
    ['http://2130706433:8080', 'http://127.0.0.1:8080'],
    ['http://0x7f.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://0177.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1.:8080', 'http://127.0.0.1:8080'],
    ['http://127.255.255.254', 'http://127.255.255.254'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['http://[0:0:0:0:0:0:0:1]:3000', 'http://[::1]:3000'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['HTTP://LOCALHOST:3000/', 'http://localhost:3000'],
  ])('accepts %s, which reaches this computer with no resolver asked', (raw, normalised) => {
    expect(checkBaseUrl(raw)).toBe(normalised);
  });

  it.each([
    'http://a.localhost:3000',
    'http://A.LOCALHOST:3000',
    'http://a.localhost.:3000',
    'http://localhost.:3000',
    'http://localhost.example.com',
    'http://localhost.localdomain',
    'http://127.0.0.1.nip.io',
    'http://[::ffff:127.0.0.1]',
    'http://[::ffff:7f00:1]',
    'http://[::127.0.0.1]',
    'http://[64:ff9b::127.0.0.1]',
    'http://0.0.0.0:8080',
    'http://0:8080',
    'http://[::]:8080',
    'http://10.0.0.1',
    'http://169.254.169.254',
  ])('refuses %s over plain http', (raw) => {
    expect(() => checkBaseUrl(raw)).toThrow(/https:\/\//);
  });

  it('still accepts https to a *.localhost name: TLS, not the resolver, vouches for it', () => {
    expect(checkBaseUrl('https://app.localhost')).toBe('https://app.localhost');
  });
});

describe('the two questions asked of a host', () => {
  it('knows localhost names in every spelling (for refusals, where local is the careful side)', () => {
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', 'a.localhost', 'A.b.LocalHost.']) {
      expect(isLocalhostName(name), name).toBe(true);
      expect(isLoopbackHost(name), name).toBe(true);
    }
    for (const name of ['localhost.example.com', 'notlocalhost', 'localhost-1', '.']) {
      expect(isLocalhostName(name), name).toBe(false);
    }
  });

  it('calls only IP literals and `localhost` itself loopback by construction', () => {
    const construction = ['localhost', '[::1]', '127.0.0.1', '127.9.8.7'];
    const notConstruction = ['a.localhost', 'localhost.', '[::ffff:7f00:1]', '0.0.0.0', '::1'];
    for (const host of construction) expect(isLoopbackByConstruction(host), host).toBe(true);
    for (const host of notConstruction) expect(isLoopbackByConstruction(host), host).toBe(false);
  });
});
