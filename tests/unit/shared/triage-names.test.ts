/**
 * The words of triage (shared/domain/triage.ts): tags and board names trimmed and NFC-normalised,
 * one case-insensitively (ß is ss), refused with a sentence for each class of bad input (empty,
 * too long in characters not UTF-16 units, every control, separator and bidi character, a `/` in
 * a board name, a path too deep), emoji sequences kept; tags and boards read from a record
 * cleaned to what may be stored, with how many were dropped.
 */
import { describe, expect, it } from 'vitest';
import {
  boardKey,
  checkBoardPath,
  checkTag,
  cleanBoards,
  cleanTags,
  foldName,
} from '../../../shared/domain/triage';
import { englishText } from '../../../shared/i18n/sentence';

const problem = (check: ReturnType<typeof checkTag> | ReturnType<typeof checkBoardPath>) =>
  check.ok ? null : englishText(check.problem);

describe('tags', () => {
  it('are trimmed and NFC-normalised; case, width of ß and composition do not make another tag', () => {
    expect(checkTag('  Cafe\u0301  ')).toMatchObject({ ok: true, name: 'Café' });
    expect(foldName('Café')).toBe(foldName('CAFE\u0301'));
    expect(foldName('Straße')).toBe(foldName('STRASSE'));
    expect(foldName('Cat')).toBe(foldName('cAT'));
  });

  it('count characters, not UTF-16 units: 64 emoji fit, 65 do not; joined emoji stay whole', () => {
    expect(checkTag('🌊'.repeat(64)).ok).toBe(true);
    expect(problem(checkTag('🌊'.repeat(65)))).toBe('A tag can have at most 64 characters.');
    expect(checkTag('👩‍👩‍👧')).toMatchObject({ ok: true, name: '👩‍👩‍👧' });
  });

  it.each([
    ['\u0000', 'U+0000'],
    ['\u0009', 'U+0009'],
    ['\u001b', 'U+001B'],
    ['\u007f', 'U+007F'],
    ['\u009b', 'U+009B'],
    ['\u2028', 'U+2028'],
    ['\u2029', 'U+2029'],
    ['\u061c', 'U+061C'],
    ['\u200e', 'U+200E'],
    ['\u200f', 'U+200F'],
    ['\u202a', 'U+202A'],
    ['\u202e', 'U+202E'],
    ['\u2066', 'U+2066'],
    ['\u2069', 'U+2069'],
    ['\ufeff', 'U+FEFF'],
  ])('refuse %j inside a tag, naming it (%s)', (character, code) => {
    expect(problem(checkTag(`a${character}b`))).toBe(`A tag cannot contain the character ${code}.`);
  });

  it('refuse an empty tag, also one of spaces only', () => {
    expect(problem(checkTag(''))).toBe('A tag cannot be empty.');
    expect(problem(checkTag(' \u3000 '))).toBe('A tag cannot be empty.');
  });

  it('read from a record: 70 tags keep the first 64 valid ones, repeats and bad ones dropped and counted', () => {
    const raw = [...Array.from({ length: 68 }, (_, n) => `t${String(n)}`), 'T1', 'bad\u202e'];
    const { tags, dropped } = cleanTags(raw);
    expect(tags).toHaveLength(64);
    expect(tags[0]).toBe('t0');
    expect(dropped).toBe(6);
  });
});

describe('boards', () => {
  it('a path is 1–5 names, each checked; its key folds every name', () => {
    expect(checkBoardPath(' Clients / Acme ')).toMatchObject({
      ok: true,
      names: ['Clients', 'Acme'],
      path: 'Clients/Acme',
      key: 'clients/acme',
    });
    expect(boardKey('Clients/ACME')).toBe('clients/acme');
    expect(problem(checkBoardPath('a/b/c/d/e/f'))).toBe(
      'Boards can be nested at most 5 levels deep.',
    );
    expect(problem(checkBoardPath('a//b'))).toBe('A board name cannot be empty.');
    expect(problem(checkBoardPath('x'.repeat(101)))).toBe(
      'A board name can have at most 100 characters.',
    );
    expect(problem(checkBoardPath('a\u202eb'))).toBe(
      'A board name cannot contain the character U+202E.',
    );
  });

  it('read from a record: invalid and repeated paths dropped and counted', () => {
    expect(cleanBoards(['A/B', 'a/b', '', 'a/b/c/d/e/f', 'C'])).toEqual({
      boards: ['A/B', 'C'],
      dropped: 3,
    });
  });
});
