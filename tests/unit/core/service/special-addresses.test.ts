import { describe, expect, it } from 'vitest';
import {
  EMBEDDING_RANGES_V6,
  SPECIAL_RANGES_V4,
  SPECIAL_RANGES_V6,
  classifyAddress,
  embeddedIpv4,
} from '../../../../electron/core/service/special-addresses';
import {
  UrlPolicyError,
  checkImageUrl,
  checkResolvedAddresses,
} from '../../../../electron/core/service/url-policy';

const REMOTE = 'https://api.example.com';
const LOCAL = 'http://127.0.0.1:9999';

/** First and last address of an IPv4 CIDR, and the addresses just outside it. */
function v4Edges(cidr: string): { inside: string[]; outside: string[] } {
  const [network = '', bits = ''] = cidr.split('/');
  const start = network.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const end = start + 2 ** (32 - Number(bits)) - 1;
  const text = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  const outside = [start - 1, end + 1].filter((n) => n >= 0 && n <= 0xffffffff).map(text);
  return { inside: [text(start), text(end)], outside };
}

describe('the special-purpose table', () => {
  it('every row is a CIDR with its RFC', () => {
    for (const row of [...SPECIAL_RANGES_V4, ...SPECIAL_RANGES_V6, ...EMBEDDING_RANGES_V6]) {
      expect(row.cidr).toMatch(/^[0-9a-f.:]+\/\d{1,3}$/);
      expect(row.rfc).toMatch(/^RFC \d+$/);
    }
  });

  it.each(SPECIAL_RANGES_V4.map((row) => [row.cidr, row.purpose]))(
    '%s (%s): first and last address refused',
    (cidr) => {
      for (const address of v4Edges(cidr).inside) expect(classifyAddress(address)).toBe('special');
    },
  );

  it('the public neighbours of the blocks that sit between public ones stay public', () => {
    for (const address of ['198.17.255.255', '198.20.0.0', '192.0.1.0', '203.0.112.255']) {
      expect(classifyAddress(address), address).toBe('public');
    }
  });

  it.each([
    ['::ffff:10.0.0.5', '10.0.0.5', 'special'],
    ['::ffff:127.0.0.1', '127.0.0.1', 'loopback'],
    ['::127.0.0.1', '127.0.0.1', 'special'],
    ['64:ff9b::7f00:1', '127.0.0.1', 'special'],
    ['64:ff9b::808:808', '8.8.8.8', 'public'],
    ['2002:c612:1::', '198.18.0.1', 'special'],
    ['2002:808:808::1', '8.8.8.8', 'public'],
  ])('%s carries %s: %s', (address, inner, kind) => {
    expect(embeddedIpv4(address)).toBe(inner);
    expect(classifyAddress(address)).toBe(kind);
  });

  it('is not fooled by case, zone ids or a non-address', () => {
    expect(classifyAddress('FE80::1')).toBe('special');
    expect(classifyAddress('fe80::1%eth0')).toBe('special');
    expect(classifyAddress('2606:4700::1')).toBe('public');
    expect(classifyAddress('example.com')).toBeNull();
  });
});

describe('image URL literals use the same table', () => {
  it.each([
    'http://198.18.0.1/a.png',
    'http://192.0.2.1/a.png',
    'http://203.0.113.9/a.png',
    'http://[2001:db8::1]/a.png',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/a.png',
    'http://[3fff::1]/a.png',
    'http://[5f00::1]/a.png',
    'http://[fec0::1]/a.png',
    'http://[100::1]/a.png',
  ])('refuses %s', (url) => {
    expect(() => checkImageUrl(url, REMOTE)).toThrow(UrlPolicyError);
  });
});

describe('checkResolvedAddresses', () => {
  const at = (...addresses: string[]) => addresses.map((address) => ({ address }));

  it('returns the first address when every one is public', () => {
    expect(checkResolvedAddresses(at('8.8.8.8', '2606:4700::1'), REMOTE)).toEqual({
      address: '8.8.8.8',
    });
  });

  it('names the address in a sentence when one is private or local', () => {
    expect(() => checkResolvedAddresses(at('8.8.8.8', '10.0.0.5'), REMOTE)).toThrow(
      'The image address points to a private or local network (10.0.0.5), so Pictor did not download it.',
    );
    expect(() => checkResolvedAddresses(at('::1'), REMOTE)).toThrow(
      'The image address points at this computer (::1), which Pictor refuses for a remote service.',
    );
  });

  it('allows loopback answers only for a service on loopback, never private ones', () => {
    expect(checkResolvedAddresses(at('127.0.0.1', '::1'), LOCAL)).toEqual({
      address: '127.0.0.1',
    });
    expect(() => checkResolvedAddresses(at('127.0.0.1', '192.168.0.2'), LOCAL)).toThrow(
      /private or local network/,
    );
  });

  it('refuses an answer that is not an address, and no answer at all', () => {
    expect(() => checkResolvedAddresses(at('evil.example'), REMOTE)).toThrow(UrlPolicyError);
    expect(() => checkResolvedAddresses([], REMOTE)).toThrow(/has no address/);
  });
});
