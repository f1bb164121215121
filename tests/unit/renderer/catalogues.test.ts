/**
 * Every translation against English: the same keys, messages that parse, the same placeholders,
 * the plural forms each language needs, and the same select choices. Also the pseudo-locale,
 * locale matching, switching without a restart and falling back on a damaged translation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LOCALES,
  PSEUDO_LOCALE,
  SOURCE_LOCALE,
  matchLocale,
  resolveLocale,
} from '../../../shared/domain/locales';
import {
  activeLocale,
  applyLocale,
  catalogue,
  errorText,
  setCatalogue,
  t,
} from '../../../renderer/i18n';
import {
  CATALOGUE_LOADERS,
  MAIN_CATALOGUE_LOADERS,
  checkedMessages,
} from '../../../renderer/i18n/catalogues';
import { MAIN_TRANSLATIONS } from '../../../shared/i18n/main-translations';
import { pseudoCatalogue, pseudoMessage } from '../../../shared/i18n/pseudo';
import { REPO_ROOT } from '../../support/source-files';

const LOCALE_DIR = join(REPO_ROOT, 'renderer/i18n/locales');
const TRANSLATED = LOCALES.filter(
  (info) => info.tag !== SOURCE_LOCALE && info.tag !== PSEUDO_LOCALE,
);

interface Shape {
  /** Placeholder names (plain, number, date, plural, select arguments). */
  readonly names: Set<string>;
  /** Each plural argument's selectors, e.g. count → {one, other}. */
  readonly plurals: Map<string, Set<string>>;
  /** Each select argument's choices. */
  readonly selects: Map<string, Set<string>>;
}

function shapeOf(message: string): Shape {
  const shape: Shape = { names: new Set(), plurals: new Map(), selects: new Map() };
  const walk = (elements: MessageFormatElement[]): void => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      if (element.type === TYPE.tag) {
        walk(element.children);
        continue;
      }
      shape.names.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        const into = element.type === TYPE.plural ? shape.plurals : shape.selects;
        const selectors = into.get(element.value) ?? new Set<string>();
        for (const [selector, option] of Object.entries(element.options)) {
          selectors.add(selector);
          walk(option.value);
        }
        into.set(element.value, selectors);
      }
    }
  };
  walk(parse(message, { ignoreTag: true, requiresOtherClause: true }));
  return shape;
}

function readLocale(tag: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(LOCALE_DIR, `${tag}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

const englishKeys = Object.keys(catalogue).sort();

/** Controls a screen reader reads out together: a task's row, the selection bars, a menu, the viewer. */
const SIDE_BY_SIDE: readonly (readonly [string, (key: string) => boolean])[] = [
  ['a task row', (key) => /^tasks\.action\.[^.]+$/.test(key) || key === 'tasks.select.task'],
  ['the tasks selection bar', (key) => /^tasks\.selection\.[^.]+$/.test(key)],
  ['the gallery selection bar', (key) => /^gallery\.selection\.[^.]+$/.test(key)],
  ["a gallery image's menu", (key) => /^gallery\.menu\.[^.]+$/.test(key)],
  ['the image viewer', (key) => /^viewer\.[^.]+$/.test(key)],
];

describe('the English catalogue', () => {
  it.each(englishKeys)('%s parses as ICU with an other case in every plural', (key) => {
    expect(() => shapeOf(catalogue[key as keyof typeof catalogue])).not.toThrow();
  });
});

describe('the locale list', () => {
  it('offers at least 20 locales besides English, three of them right-to-left', () => {
    expect(TRANSLATED.length).toBeGreaterThanOrEqual(20);
    expect(LOCALES.filter((info) => info.dir === 'rtl').map((info) => info.tag)).toEqual(
      expect.arrayContaining(['ar', 'he', 'fa']),
    );
  });

  it('has a loader and a file for every translated locale, and no others', () => {
    const files = readdirSync(LOCALE_DIR).map((name) => name.replace(/\.json$/, ''));
    const tags = TRANSLATED.map((info) => info.tag);
    expect(Object.keys(CATALOGUE_LOADERS).sort()).toEqual([...tags].sort());
    expect(Object.keys(MAIN_CATALOGUE_LOADERS).sort()).toEqual([...tags].sort());
    expect(files.sort()).toEqual([...tags].sort());
  });
});

describe.each(TRANSLATED.map((info) => info.tag))('the %s catalogue', (tag) => {
  const translation = readLocale(tag);
  const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;

  it('has exactly the English keys', () => {
    const keys = Object.keys(translation).sort();
    expect(keys.filter((key) => !Object.hasOwn(catalogue, key))).toEqual([]);
    expect(englishKeys.filter((key) => !Object.hasOwn(translation, key))).toEqual([]);
  });

  it('names apart the controls shown side by side that English names apart', () => {
    const clashes: string[] = [];
    for (const [group, inGroup] of SIDE_BY_SIDE) {
      const named = new Map<unknown, string>();
      for (const key of englishKeys.filter(inGroup)) {
        const other = named.get(translation[key]);
        const english = (name: string) => catalogue[name as keyof typeof catalogue];
        if (other !== undefined && english(other) !== english(key)) {
          clashes.push(`${group}: ${other} and ${key} are both "${String(translation[key])}"`);
        }
        named.set(translation[key], key);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('has messages that parse, with English placeholders, plural forms and select choices', () => {
    const problems: string[] = [];
    for (const key of englishKeys) {
      const message = translation[key];
      if (typeof message !== 'string' || message.trim() === '') {
        problems.push(`${key}: not a message`);
        continue;
      }
      let shape: Shape;
      try {
        shape = shapeOf(message);
      } catch (error) {
        problems.push(`${key}: does not parse (${String(error)})`);
        continue;
      }
      const english = shapeOf(catalogue[key as keyof typeof catalogue]);
      if ([...shape.names].sort().join() !== [...english.names].sort().join()) {
        problems.push(`${key}: placeholders ${[...shape.names]} instead of ${[...english.names]}`);
      }
      for (const name of english.plurals.keys()) {
        const selectors = shape.plurals.get(name);
        const missing = categories.filter((category) => !selectors?.has(category));
        if (missing.length > 0) problems.push(`${key}: plural ${name} lacks ${missing}`);
      }
      for (const [name, choices] of english.selects) {
        const translated = shape.selects.get(name);
        if ([...(translated ?? [])].sort().join() !== [...choices].sort().join()) {
          problems.push(`${key}: select ${name} has other choices than English`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('is used when chosen, with the page language and direction', async () => {
    const info = await applyLocale(tag);
    expect(info.tag).toBe(tag);
    expect(document.documentElement.lang).toBe(tag);
    expect(document.documentElement.dir).toBe(LOCALES.find((l) => l.tag === tag)?.dir);
    const sample = Object.keys(translation).find((key) => !/[{}]/.test(String(translation[key])));
    if (sample) expect(t(sample as keyof typeof catalogue)).toBe(translation[sample]);
    // The main process's error sentences come with it: a failure reads in this language.
    const own = MAIN_TRANSLATIONS[tag]?.['error.unexpected'];
    expect(own).toEqual(expect.any(String));
    expect(errorText({ message: 'stored English', sentence: { key: 'error.unexpected' } })).toBe(
      own,
    );
    expect(errorText({ message: 'stored English' })).toBe('stored English');
  });
});

describe('switching and falling back', () => {
  afterEach(async () => {
    await applyLocale('en');
    setCatalogue({});
  });

  it('follows the system languages, matching region and script', () => {
    expect(resolveLocale('system', ['pt-PT']).tag).toBe('pt-BR');
    expect(resolveLocale('system', ['zh-HK']).tag).toBe('zh-TW');
    expect(resolveLocale('system', ['zh']).tag).toBe('zh-CN');
    expect(resolveLocale('system', ['xx', 'de-AT']).tag).toBe('de');
    expect(resolveLocale('system', ['xx-YY']).tag).toBe('en');
    expect(resolveLocale('fr', ['de']).tag).toBe('fr');
    expect(resolveLocale('klingon', ['de']).tag).toBe('de');
    expect(matchLocale('')).toBeUndefined();
    expect(matchLocale('a'.repeat(100))).toBeUndefined();
  });

  it('switches at once and notifies, the latest choice winning', async () => {
    const first = applyLocale('ar');
    const second = applyLocale('de');
    await Promise.all([first, second]);
    expect(activeLocale().tag).toBe('de');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('shows English for a translation that does not parse or lacks a value', () => {
    setCatalogue({
      'tasks.count': '{count, plural, one {# Aufgabe',
      'common.cancel': '{who} nein',
    });
    expect(t('tasks.count', { count: 2 })).toBe('2 tasks');
    expect(t('common.cancel')).toBe('Cancel');
  });

  it('keeps only known keys with bounded text from a loaded file', () => {
    const kept = checkedMessages(
      {
        'common.cancel': 'Abbrechen',
        nope: 'x',
        'common.close': 5,
        'tasks.count': 'x'.repeat(5000),
      },
      catalogue,
    );
    expect(kept).toEqual({ 'common.cancel': 'Abbrechen' });
    expect(checkedMessages(null, catalogue)).toEqual({});
    expect(checkedMessages(['a'], catalogue)).toEqual({});
  });
});

describe('the pseudo-locale', () => {
  const pseudo = pseudoCatalogue(catalogue);

  it.each(englishKeys)('%s keeps its placeholders and grows', (key) => {
    const english = catalogue[key as keyof typeof catalogue];
    const message = pseudo[key]!;
    const shapeBefore = shapeOf(english);
    const shapeAfter = shapeOf(message);
    expect([...shapeAfter.names].sort()).toEqual([...shapeBefore.names].sort());
    if (/[A-Za-z]{3}/.test(english.replace(/\{[^}]*\}/g, ''))) {
      expect(message).not.toBe(english);
      expect(message.length).toBeGreaterThan(english.length);
    }
  });

  it('formats through t() with accents and brackets', async () => {
    await applyLocale(PSEUDO_LOCALE);
    expect(t('tasks.count', { count: 3 })).toMatch(/^\[3 ţášķš~+\]$/);
    expect(pseudoMessage('{ broken')).toBe('[{ broken]');
    expect(errorText({ message: 'x', sentence: { key: 'error.unexpected' } })).toMatch(
      /^\[Šöɱéţĥíñĝ ŵéñţ ŵŕöñĝ íñšíđé Ƥíçţöŕ\./,
    );
  });
});
