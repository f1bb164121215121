/**
 * The README's "Languages" says what shared/domain/locales.ts holds: how many languages besides
 * English, each by its English name, and which of them mirror the window (right to left). A
 * language added or dropped cannot leave the count or the list behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES, PSEUDO_LOCALE, SOURCE_LOCALE } from '../../../shared/domain/locales';
import { REPO_ROOT } from '../../support/source-files';

const englishNames = new Intl.DisplayNames(['en'], { type: 'language' });
const NUMBERS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The README's claims: the count of other languages, the sentence naming them, the mirrored. */
function claims(readme: string): { count: number; list: string; mirrored: string[] } {
  const text = readme.replace(/\s+/g, ' ');
  const spoken =
    /Pictor speaks English and (\w+) other languages: ([^.]*), plus a pseudo-locale/.exec(text);
  const mirror = /\. ([A-Z][\w, ]*) mirror the window/.exec(text);
  const word = spoken?.[1] ?? '';
  return {
    count: /^\d+$/.test(word) ? Number(word) : NUMBERS.indexOf(word),
    list: spoken?.[2] ?? '',
    mirrored: (mirror?.[1] ?? '').split(/, | and /).filter(Boolean),
  };
}

/** A locale's English name as a list of languages writes it (Chinese once for both scripts). */
function nameOf(tag: string): string {
  return englishNames.of(tag.startsWith('zh-') ? 'zh' : tag) ?? tag;
}

describe("the README's languages", () => {
  const translated = LOCALES.filter(({ tag }) => tag !== SOURCE_LOCALE && tag !== PSEUDO_LOCALE);
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

  it('are the catalogues the app ships, counted and named', () => {
    const { count, list } = claims(readme);
    expect(count).toBe(translated.length);
    expect(translated.map(({ tag }) => nameOf(tag)).filter((name) => !list.includes(name))).toEqual(
      [],
    );
  });

  it('mirror the window for exactly the right-to-left ones', () => {
    const rtl = translated.filter(({ dir }) => dir === 'rtl').map(({ tag }) => nameOf(tag));
    expect(claims(readme).mirrored.sort()).toEqual(rtl.sort());
  });

  it('are read as written', () => {
    const page = `Pictor speaks English and 2 other languages: Arabic and
      German, plus a pseudo-locale. Settings. Arabic and Hebrew mirror the window (x).`;
    expect(claims(page)).toEqual({
      count: 2,
      list: 'Arabic and German',
      mirrored: ['Arabic', 'Hebrew'],
    });
    expect(nameOf('pt-BR')).toBe('Brazilian Portuguese');
    expect(nameOf('zh-TW')).toBe('Chinese');
  });
});
