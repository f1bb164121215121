/**
 * A profile's regional API hosts as patterns (`https://api.*.bfl.ai`): every host of one ASCII
 * label matches, in any spelling the URL parser reads as that host; no hostile spelling lets a
 * request reach another host (more labels, another domain around it, a final dot, an IDN, another
 * port or scheme, a user name). The properties run from a fixed seed (PICTOR_FC_SEED replays
 * another), as the other property tests do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileRegionalHost,
  isRegionalBaseUrl,
  isRegionalHost,
} from '../../../../../electron/core/service/providers/regional-hosts';
import {
  keyMayGoTo,
  regionalOriginsAt,
} from '../../../../../electron/core/service/providers/api-origins';
import { bflProfile } from '../../../../../electron/core/service/providers/bfl';
import { falProfile } from '../../../../../electron/core/service/providers/fal';

const SEED = Number(process.env['PICTOR_FC_SEED'] ?? 20_261_125);
const BFL = ['https://api.*.bfl.ai'];

/** A region's name as BFL writes them: eu, us1, eu2, ap-southeast… (never an IDN's `xx--`). */
const label = fc
  .stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/)
  .filter((text) => !(text.length >= 4 && text[2] === '-' && text[3] === '-'));

/** What a connection to `url` would reach, read independently of the matcher. */
function reachesARegion(url: string): boolean {
  const parsed = new URL(url);
  const parts = parsed.hostname.split('.');
  return (
    parsed.protocol === 'https:' &&
    parsed.port === '' &&
    parsed.username === '' &&
    parsed.password === '' &&
    parts.length === 4 &&
    parts[0] === 'api' &&
    parts[2] === 'bfl' &&
    parts[3] === 'ai' &&
    /^[a-z0-9-]+$/.test(parts[1]!) &&
    !parts[1]!.startsWith('xn--')
  );
}

describe('regional host patterns', () => {
  it('match every host of one label, whatever its case or a spelled-out default port', () => {
    fc.assert(
      fc.property(label, fc.boolean(), fc.boolean(), (region, upper, port) => {
        const host = `api.${region}.bfl.ai`;
        const url = `https://${upper ? host.toUpperCase() : host}${port ? ':443' : ''}/v1/get_result?id=1`;
        expect(isRegionalHost(url, BFL)).toBe(true);
      }),
      { seed: SEED, numRuns: 300 },
    );
    for (const region of ['eu', 'us', 'eu1', 'us1', 'eu2', 'ap-southeast-1']) {
      expect(isRegionalHost(`https://api.${region}.bfl.ai/v1/get_result?id=1`, BFL)).toBe(true);
    }
  });

  it('refuse more labels, another domain around the pattern, and the bare domain', () => {
    fc.assert(
      fc.property(label, label, (one, two) => {
        for (const host of [
          `api.${one}.${two}.bfl.ai`,
          `${one}.api.${two}.bfl.ai`,
          `api.${one}.bfl.ai.${two}.com`,
          `api.${one}.bfl.ai${two}`,
          `xapi.${one}.bfl.ai`,
          `api.${one}.xbfl.ai`,
          `api.${one}.bfl.ai.`,
        ]) {
          expect(isRegionalHost(`https://${host}/v1/get_result`, BFL), host).toBe(false);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
    for (const host of [
      'api.bfl.ai',
      'api..bfl.ai',
      'api.bfl.ai.evil.com',
      'evil.com.api.x.bfl.ai',
      'api.-eu.bfl.ai',
      'api.eu-.bfl.ai',
      'api.eu_1.bfl.ai',
    ]) {
      expect(isRegionalHost(`https://${host}/`, BFL), host).toBe(false);
    }
  });

  it('refuse another scheme or port, a user name or password, an IDN, a broken URL', () => {
    for (const url of [
      'http://api.eu.bfl.ai/v1/get_result',
      'wss://api.eu.bfl.ai/v1/get_result',
      'https://api.eu.bfl.ai:8443/v1/get_result',
      'https://api.eu.bfl.ai:80/v1/get_result',
      'https://user@api.eu.bfl.ai/v1/get_result',
      'https://user:pw@api.eu.bfl.ai/v1/get_result',
      'https://api.eu.bfl.ai@evil.example/v1/get_result',
      'https://evil.example\\@api.eu.bfl.ai/v1/get_result',
      'https://evil.example#@api.eu.bfl.ai/',
      'https://api.ëu.bfl.ai/v1/get_result',
      'https://api.xn--u-wga.bfl.ai/v1/get_result',
      'https://api.еu.bfl.ai/',
      'https://api.eu%2eevil.bfl.ai/',
      'https://api.eu%00.bfl.ai/',
      'https://api.eu%2f.bfl.ai/',
      'not a url',
      '',
    ]) {
      expect(isRegionalHost(url, BFL), url).toBe(false);
    }
  });

  it('read percent-encoded and full-width spellings as the host the parser makes of them', () => {
    // Both reach api.eu.bfl.ai itself, as fetch would: the same host, not a trick.
    expect(isRegionalHost('https://api.%65u.bfl.ai/v1/x', BFL)).toBe(true);
    expect(isRegionalHost('https://api\u3002eu\u3002bfl\u3002ai/v1/x', BFL)).toBe(true);
  });

  it('never accept a spelling that reaches anything but api.<one label>.bfl.ai', () => {
    const piece = fc.constantFrom(
      'https://',
      'http://',
      'HTTPS://',
      'api',
      'API',
      '.',
      '。',
      'eu',
      'eu1',
      'bfl',
      'BFL',
      'ai',
      'evil',
      'com',
      '@',
      ':',
      '443',
      '8443',
      'user:pw@',
      '%2e',
      '%65',
      '%2f',
      'xn--',
      '-',
      'ë',
      '/',
      '\\',
      '#',
      '?',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 14 }), (pieces) => {
        const url = pieces.join('');
        if (isRegionalHost(url, BFL)) expect(reachesARegion(url), url).toBe(true);
      }),
      { seed: SEED, numRuns: 5_000 },
    );
  });

  it('are https, one `*` between fixed labels, or a profile fails loudly', () => {
    expect(compileRegionalHost('https://api.*.bfl.ai')).toEqual({ head: 'api.', tail: '.bfl.ai' });
    for (const pattern of [
      'http://api.*.bfl.ai',
      'https://*.bfl.ai',
      'https://api.*',
      'https://api.*.ai',
      'https://api.*.*.bfl.ai',
      'https://api.*.bfl.ai/',
      'https://api.*.bfl.ai:443',
      'https://u@api.*.bfl.ai',
      'https://api.bfl.ai',
    ]) {
      expect(() => compileRegionalHost(pattern), pattern).toThrow(/Not a regional host pattern/);
    }
  });
});

describe('where the key may go at a BFL address', () => {
  const poll = (host: string) => `https://${host}/v1/get_result?id=abc`;

  it('at the global address or a regional one, to every regional host', () => {
    for (const baseUrl of [
      'https://api.bfl.ai',
      'https://api.eu.bfl.ai',
      'https://api.us1.bfl.ai',
    ]) {
      expect(isRegionalBaseUrl(baseUrl, BFL) || baseUrl === 'https://api.bfl.ai').toBe(true);
      const regional = regionalOriginsAt(bflProfile, baseUrl);
      for (const host of ['api.eu.bfl.ai', 'api.us.bfl.ai', 'api.eu2.bfl.ai', 'api.us1.bfl.ai']) {
        expect(keyMayGoTo(poll(host), baseUrl, regional), `${baseUrl} → ${host}`).toBe(true);
      }
      for (const host of ['api.bfl.ai.evil.com', 'evil.com.api.x.bfl.ai', 'delivery.eu.bfl.ai']) {
        expect(keyMayGoTo(poll(host), baseUrl, regional), `${baseUrl} → ${host}`).toBe(false);
      }
      // A regional host is still checked for a step back out of the path.
      expect(keyMayGoTo('https://api.eu2.bfl.ai/v1/..%2Fx', baseUrl, regional)).toBe(false);
    }
  });

  it('at an address the user named instead (a proxy, a path), to that address only', () => {
    for (const baseUrl of ['https://proxy.example', 'https://api.eu.bfl.ai/team-a']) {
      const regional = regionalOriginsAt(bflProfile, baseUrl);
      expect(regional).toEqual([]);
      expect(keyMayGoTo(poll('api.eu.bfl.ai'), baseUrl, regional)).toBe(false);
    }
    // Another profile never borrows BFL's regions.
    expect(regionalOriginsAt(falProfile, 'https://queue.fal.run')).toEqual([]);
  });
});
