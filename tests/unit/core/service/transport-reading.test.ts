/**
 * What a rejected fetch says about its request: the transport's own word (FetchRejection) decides
 * whether anything was sent, whatever the codes; without it, the codes and words of the failures
 * that can only happen before a connection carries a byte. The bad ports are the Fetch
 * standard's, the same list undici refuses.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FetchRejection } from '../../../../electron/ports/http';
import { readTransportFailure } from '../../../../electron/core/service/transport-reading';
import { blockedPortOf } from '../../../../electron/core/service/blocked-ports';
import { undiciError } from './fake-fetch';

describe('the transport’s word', () => {
  it('unsent: nothing was sent, even for an error no list knows', () => {
    const reading = readTransportFailure(new FetchRejection('unsent', undiciError('E_NEW_ONE')));
    expect(reading).toMatchObject({ unsent: true, cause: 'other', code: 'E_NEW_ONE' });
  });

  it('written: may have reached the service, even with a code of the connect phase', () => {
    const reading = readTransportFailure(
      new FetchRejection('written', undiciError('ECONNREFUSED', 'connect')),
    );
    expect(reading.unsent).toBe(false);
  });

  it('unsent keeps the cause its codes say', () => {
    const cases: [unknown, string][] = [
      [undiciError('ECONNREFUSED', 'connect'), 'refused'],
      [undiciError('ENOTFOUND', 'getaddrinfo'), 'dns'],
      [undiciError('DEPTH_ZERO_SELF_SIGNED_CERT'), 'certificate'],
      [undiciError('ERR_SSL_WRONG_VERSION_NUMBER'), 'handshake'],
      [new TypeError('fetch failed', { cause: new Error('bad port') }), 'blocked_port'],
    ];
    for (const [error, cause] of cases) {
      expect(readTransportFailure(new FetchRejection('unsent', error)).cause).toBe(cause);
    }
  });
});

describe('without the transport’s word', () => {
  it.each<[string, unknown, string]>([
    [
      'undici’s bad port',
      new TypeError('fetch failed', { cause: new Error('bad port') }),
      'blocked_port',
    ],
    ['Chromium’s unsafe port', new Error('net::ERR_UNSAFE_PORT'), 'blocked_port'],
    [
      'a TLS socket closed in its handshake',
      undiciError(
        'ECONNRESET',
        undefined,
        'Client network socket disconnected before secure TLS connection was established',
      ),
      'handshake',
    ],
    ['a plain-http port', undiciError('ERR_SSL_WRONG_VERSION_NUMBER'), 'handshake'],
    [
      'an invalid URL',
      Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' }),
      'other',
    ],
  ])('%s: nothing was sent', (_name, error, cause) => {
    expect(readTransportFailure(error)).toMatchObject({ unsent: true, cause });
  });

  it('a reset after the handshake may have reached the service', () => {
    expect(readTransportFailure(undiciError('ECONNRESET', 'read')).unsent).toBe(false);
  });
});

describe('blocked ports', () => {
  it('are the ones undici refuses', () => {
    const require = createRequire(import.meta.url);
    const { badPorts } = require('undici/lib/web/fetch/constants.js') as { badPorts: string[] };
    // Every port a URL can name, through the client's own check.
    const blocked: number[] = [];
    for (let port = 1; port <= 65_535; port += 1) {
      if (blockedPortOf(`http://127.0.0.1:${String(port)}/`) === port) blocked.push(port);
    }
    expect(blocked).toEqual(badPorts.map(Number));
  });

  it.each([
    ['http://127.0.0.1:9', 9],
    ['http://127.0.0.1:6000/api', 6000],
    ['https://gateway.example:6667', 6667],
    ['https://gateway.example:10080/', 10080],
    ['http://[::1]:6665', 6665],
  ])('%s is on port %i', (url, port) => {
    expect(blockedPortOf(url)).toBe(port);
  });

  it.each([
    'https://api.example.com',
    'http://127.0.0.1:8080',
    'https://x.example:443',
    'nonsense',
  ])('%s is not', (url) => {
    expect(blockedPortOf(url)).toBeNull();
  });
});
