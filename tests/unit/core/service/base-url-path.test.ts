/**
 * The base URL the key is bound to has one spelling, and "under it" means what a server that
 * decodes the path would also call under it. The class: sibling paths, `..` segments (plain and
 * encoded), encoded slashes, trailing slashes, the case of scheme and host, default ports.
 */
import { describe, expect, it } from 'vitest';
import {
  hasHiddenDotSegment,
  isUnderBase,
  normalisePercentEncoding,
} from '../../../../electron/core/service/base-url-path';
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
