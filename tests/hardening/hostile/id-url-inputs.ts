/**
 * Hostile task ids and image URLs for ids-and-urls.test.ts: traversal pieces, look-alikes and
 * control characters for ids; non-public hosts in every notation, foreign schemes, userinfo and
 * backslash tricks and overlong addresses for image URLs.
 */
import fc from 'fast-check';
import { dotted, nonPublicV4, nonPublicV6, v4Notations } from './address-oracle';
import { controlString, hostileString, loneSurrogates } from './hostile-values';

export const TRAVERSAL = [
  '../',
  '..',
  '.',
  '..%2f',
  '..%2F',
  '%2e%2e',
  '%2e%2e%2f',
  '%2F',
  '%5c',
  '\\',
  '..\\',
  '\0',
  '%00',
  '/',
  '//',
  '?',
  '#',
  '%',
  '％２ｆ',
  '／',
  '∕',
  '⁄',
  '．．',
  '․․',
  '\u202e',
  ' ',
  '\t',
  '\n',
  'C:',
  'CON',
  'nul.png',
] as const;

/** Ids built from traversal pieces, look-alikes, control characters and plain text. */
export const taskId: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.oneof(fc.constantFrom(...TRAVERSAL), fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/)), {
      minLength: 1,
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
  fc.constantFrom('', ' ', '   ', '\t\n', '.', '..', ' .. ', '...', '%2e', '.%2e'),
  fc.integer({ min: 200, max: 100_000 }).map((length) => 'a'.repeat(length)),
  fc.integer({ min: 250, max: 260 }).map((length) => `${'../'.repeat(length)}`),
  controlString,
  loneSurrogates,
  hostileString.filter((text) => text.length < 300_000),
);

export const SCHEMES = [
  'file:',
  'data:',
  'javascript:',
  'blob:',
  'ftp:',
  'ws:',
  'wss:',
  'about:',
  'chrome:',
  'view-source:',
  'gopher:',
  'mailto:',
  'intent:',
  'pictor-gallery:',
  'pictor-app:',
  'filesystem:',
  'jar:',
];

/** URLs whose host is non-public, in every notation and wrapped in every trick. */
export const hostileImageUrl: fc.Arbitrary<{ kind: string; url: string }> = fc.oneof(
  fc
    .tuple(nonPublicV4, fc.nat())
    .map(([n, pick]) => ({ kind: 'ipv4-notation', host: v4Notations(n)[pick % 11]!, n }))
    .map(({ kind, host }) => ({ kind, url: `https://${host}/img.png` })),
  nonPublicV6.map((host) => ({ kind: 'ipv6', url: `http://[${host}]:8443/img.png` })),
  fc
    .tuple(nonPublicV6, fc.constantFrom('%25eth0', '%eth0', '%251'))
    .map(([host, zone]) => ({ kind: 'ipv6-zone', url: `https://[${host}${zone}]/` })),
  fc
    .constantFrom('localhost', 'LOCALHOST', 'localhost.', 'app.localhost', 'x.y.localhost.')
    .map((host) => ({ kind: 'localhost-name', url: `https://${host}/a.png` })),
  fc
    .tuple(fc.constantFrom(...SCHEMES), fc.webPath())
    .map(([scheme, path]) => ({ kind: 'scheme', url: `${scheme}//cdn.example.com${path}` })),
  fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9+.-]{0,12}$/).filter((s) => s !== 'http' && s !== 'https'),
      fc.webPath(),
    )
    .map(([scheme, path]) => ({ kind: 'scheme', url: `${scheme}:${path}` })),
  fc.tuple(nonPublicV4, fc.domain(), fc.integer({ min: 0, max: 7 })).map(([n, good, how]) => {
    const bad = dotted(n);
    const urls = [
      `https://${good}@${bad}/`,
      `https://${bad}#@${good}`,
      `https://${bad}?@${good}/`,
      `https:\\\\${bad}\\a.png`,
      `https:/${bad}/a.png`,
      `https:${bad}/a.png`,
      `https://${bad}\\@${good}/`,
      `  https://${bad.replace('.', '\t.')}\n/a.png `,
    ];
    return { kind: 'userinfo-backslash', url: urls[how]! };
  }),
  fc.integer({ min: 20_000, max: 2_000_000 }).map((length) => ({
    kind: 'overlong',
    url: `https://cdn.example.com/${'a'.repeat(length)}.png`,
  })),
);
