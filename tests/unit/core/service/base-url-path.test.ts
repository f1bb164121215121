/**
 * The base URL the key is bound to has one spelling, and "under it" means what a server that
 * decodes the path would also call under it. The class: sibling paths, `..` segments (plain and
 * encoded, with `;parameters`), encoded slashes, trailing slashes, the case of scheme and host,
 * default ports.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasHiddenDotSegment,
  isUnderBase,
  normalisePercentEncoding,
} from '../../../../electron/core/service/base-url-path';
import { checkTaskId } from '../../../../electron/core/service/task-id';
import { checkBaseUrl } from '../../../../electron/core/service/url-policy';

const TEAM_A = 'https://gateway.example/team-a';

describe('checkBaseUrl gives one spelling per base URL', () => {
  it.each([
    'https://gateway.example/team-a',
    'https://gateway.example/team-a/',
    'https://gateway.example/team-a//',
    'https://gateway.example/team-a/v1',
    'https://gateway.example/team-a/v1/',
    'HTTPS://GATEWAY.EXAMPLE/team-a',
    'https://gateway.example:443/team-a',
    'https://gateway.example/./team-a',
    'https://gateway.example/x/../team-a',
    'https://gateway.example/x/%2e%2e/team-a',
    'https://gateway.example/x/%2E./team-a/',
    'https://gateway.example/team%2Da',
    'https://gateway.example/%74eam-a',
    'https://gateway.example\\team-a',
    '  https://gateway.example/team-a  ',
  ])('%s is %s', (raw) => {
    expect(checkBaseUrl(raw)).toBe(TEAM_A);
  });

  it('keeps different paths different: the path is part of what the key is bound to', () => {
    const spellings = [
      'https://gateway.example/team-b',
      'https://gateway.example/team-a/sub',
      'https://gateway.example/Team-A',
      'https://gateway.example/team-a%2Fsub',
      'https://gateway.example/team',
      'https://gateway.example',
      'https://gateway.example:8443/team-a',
      'http://127.0.0.1/team-a',
    ];
    for (const raw of spellings) expect(checkBaseUrl(raw), raw).not.toBe(TEAM_A);
  });

  it('writes other escapes in upper case, so %2f and %2F are one address', () => {
    expect(checkBaseUrl('https://gateway.example/a%2fb')).toBe('https://gateway.example/a%2Fb');
    expect(checkBaseUrl('https://gateway.example/a%2Fb')).toBe('https://gateway.example/a%2Fb');
    expect(checkBaseUrl('https://gateway.example/%7eme')).toBe('https://gateway.example/~me');
  });

  it.each([
    'https://gateway.example/team-a/..%2Fteam-b',
    'https://gateway.example/team-a/..%2fteam-b',
    'https://gateway.example/team-a%2F..%2Fteam-b',
    'https://gateway.example/team-a/%2e%2e%2Fteam-b',
    'https://gateway.example/team-a/..%5Cteam-b',
    'https://gateway.example/team-a/%252e%252e%252Fteam-b',
    'https://gateway.example/team-a/.%2F',
  ])('refuses %s: a decoding gateway would read a step out of the path', (raw) => {
    expect(() => checkBaseUrl(raw)).toThrow(/“\.” or “\.\.”/);
  });
});

describe('isUnderBase', () => {
  it.each([
    `${TEAM_A}/v1/images/generations`,
    `${TEAM_A}/v1/tasks/abc`,
    `${TEAM_A}/v1/tasks/a%2Fb`,
    'https://GATEWAY.example:443/team-a/v1/tasks/abc',
    'https://gateway.example/team%2Da/v1/tasks/abc',
  ])('accepts %s', (url) => {
    expect(isUnderBase(url, TEAM_A)).toBe(true);
  });

  it.each([
    'https://gateway.example/team-b/v1/tasks/abc',
    'https://gateway.example/team-ab/v1/tasks/abc',
    'https://gateway.example/team-a',
    'https://gateway.example/v1/tasks/abc',
    'https://gateway.example/team-a/v1/tasks/..%2F..%2F..%2Fteam-b%2Fv1%2Ftasks%2Fx',
    'https://gateway.example/team-a/v1/tasks/..%252F..%252Fteam-b',
    'https://gateway.example/team-a/v1/tasks/%2e%2e%5C%2e%2e%5Cteam-b',
    'https://gateway.example/team-a%2F..%2Fteam-b/v1/tasks/x',
    'https://other.example/team-a/v1/tasks/abc',
    'http://gateway.example/team-a/v1/tasks/abc',
    'https://gateway.example:8443/team-a/v1/tasks/abc',
    'https://user:pw@gateway.example/team-a/v1/tasks/abc',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isUnderBase(url, TEAM_A)).toBe(false);
  });

  it('puts everything on the origin under a root base URL, as origin binding did', () => {
    expect(isUnderBase('https://api.example/v1/tasks/x', 'https://api.example')).toBe(true);
    expect(isUnderBase('https://api.example/other/v1', 'https://api.example')).toBe(true);
  });
});

describe('the helpers', () => {
  it('finds dot parts behind any number of encodings and either slash', () => {
    for (const hidden of ['..', '.', 'a/../b', 'a\\..', '..%2F', '%2e%2e', '%252e%252e/x']) {
      expect(hasHiddenDotSegment(hidden), hidden).toBe(true);
    }
    for (const plain of ['a..b', '...', 'v1.2', '%2e%2e%2e', 'a%2Fb']) {
      expect(hasHiddenDotSegment(plain), plain).toBe(false);
    }
  });

  it('decodes only unreserved characters and upper-cases the other escapes', () => {
    expect(normalisePercentEncoding('/%41%2d%5f%7e%2f%3a%25')).toBe('/A-_~%2F%3A%25');
    expect(normalisePercentEncoding('/%zz%4')).toBe('/%zz%4');
  });
});

/** One `.` as a server may decode it: plain, or percent-encoded once or twice, in either case. */
const dot = fc.constantFrom('.', '%2e', '%2E', '%252e', '%252E');
/** A `;` that starts a segment's parameters, plain or encoded. */
const semicolon = fc.constantFrom(';', '%3b', '%3B', '%253B');
const separator = fc.constantFrom('/', '\\', '%2F', '%2f', '%5C', '%255C');
const word = fc.stringMatching(/^[A-Za-z0-9_~-]{1,8}$/);
/** A segment's parameters: nothing, or `;` and a few harmless characters (`=`, `,`, letters). */
const parameters = fc.option(
  fc.tuple(semicolon, fc.stringMatching(/^[A-Za-z0-9=,._-]{0,8}$/)).map(([s, p]) => s + p),
  { nil: '' },
);
/** `.` or `..`, each dot spelled its own way, perhaps with parameters. */
const dotSegment = fc
  .tuple(fc.array(dot, { minLength: 1, maxLength: 2 }), parameters)
  .map(([dots, params]) => dots.join('') + params);
const dotDotSegment = fc
  .tuple(dot, dot, parameters)
  .map(([first, second, params]) => first + second + params);
/** Segments no server reads as a dot segment: a name with something besides dots before `;`. */
const plainSegment = fc
  .tuple(
    fc.array(fc.constantFrom('.', ''), { maxLength: 3 }),
    word,
    fc.constantFrom('', '.', '..'),
    parameters,
  )
  .map(([lead, name, trail, params]) => lead.join('') + name + trail + params);

describe('dot segments, however they are spelled (property)', () => {
  it('finds `.` and `..` with any mix of encodings, parameters and separators around them', () => {
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 3 }),
        separator,
        dotSegment,
        fc.array(word, { maxLength: 3 }),
        (before, sep, segment, after) => {
          const path = [...before, segment].join(sep) + (after.length ? `/${after.join('/')}` : '');
          expect(hasHiddenDotSegment(path), path).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never takes a name with more than dots before its `;` for a dot segment', () => {
    fc.assert(
      fc.property(fc.array(plainSegment, { minLength: 1, maxLength: 4 }), (segments) => {
        const path = segments.join('/');
        fc.pre(!segments.some((segment) => /^\.{1,2}(;|%3b|%3B|%253B|$)/.test(segment)));
        expect(hasHiddenDotSegment(path), path).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('a task id or a redirect that steps back with `..` in any spelling is refused', () => {
    fc.assert(
      fc.property(dotDotSegment, word, (segment, rest) => {
        expect(() => checkTaskId(segment), segment).toThrow();
        expect(() => checkTaskId(`${rest}/${segment}/${rest}`), segment).toThrow();
        // Whatever the URL parser collapses, nothing lands under team-a while stepping out of it.
        const redirect = `${TEAM_A}/${segment}/team-b/v1/tasks/${rest}`;
        expect(isUnderBase(redirect, TEAM_A), redirect).toBe(false);
        // A base URL is refused, or is what the parser made of it (`/team-a/../team-b` is
        // `/team-b`): never a path a decoding server reads differently.
        let base: string | null = null;
        try {
          base = checkBaseUrl(`${TEAM_A}/${segment}/team-b`);
        } catch {
          // Refused: the hidden step back is named to the user.
        }
        if (base !== null) {
          expect(base, segment).toBe('https://gateway.example/team-b');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it.each(['..;x', '..;', '.;jsessionid=1', '%2e%2e;', '%2E.;a=b', '..%3Bx', 'a/..;/b', 'a\\..;x'])(
    'finds %s',
    (path) => {
      expect(hasHiddenDotSegment(path)).toBe(true);
    },
  );
});
