/**
 * The main process's catalogue (menus, notifications, dialogs) against English: every locale has
 * the same keys, messages that parse, the same placeholders, the plural forms its language needs
 * and one distinct access key per top-level menu; the pseudo-locale and the English fallback.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import {
  LOCALES,
  PSEUDO_LOCALE,
  SOURCE_LOCALE,
  localeInfo,
  type LocaleInfo,
} from '../../../shared/domain/locales';
import { MainCatalogue } from '../../../shared/i18n/main-catalogue';
import { MAIN_TRANSLATIONS } from '../../../shared/i18n/main-translations';
import { mainMessages, type MainMessageKey } from '../../../shared/i18n/main-messages';
import { REPO_ROOT } from '../../support/source-files';

const LOCALE_DIR = join(REPO_ROOT, 'shared/i18n/main-locales');
const TRANSLATED = LOCALES.filter(
  (info) => info.tag !== SOURCE_LOCALE && info.tag !== PSEUDO_LOCALE,
);
const KEYS = Object.keys(mainMessages) as MainMessageKey[];
const MENU_NAMES = KEYS.filter((key) =>
  ['menu.file', 'menu.edit', 'menu.view', 'menu.window', 'menu.help'].includes(key),
);

interface Shape {
  readonly names: Set<string>;
  readonly plurals: Map<string, Set<string>>;
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
      if (element.type !== TYPE.plural && element.type !== TYPE.select) continue;
      const into = element.type === TYPE.plural ? shape.plurals : shape.selects;
      const selectors = into.get(element.value) ?? new Set<string>();
      for (const [selector, option] of Object.entries(element.options)) {
        selectors.add(selector);
        walk(option.value);
      }
      into.set(element.value, selectors);
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

/** The access key of a Windows/Linux menu name: the character after a single `&`. */
function accessKey(name: string): string | null {
  const match = /(?:^|[^&])&([^&])/.exec(name);
  return match?.[1]?.toLowerCase() ?? null;
}

function problemsOf(tag: string, translation: Record<string, unknown>): string[] {
  const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
  const problems: string[] = [];
  for (const key of KEYS) {
    const message = translation[key];
    if (typeof message !== 'string' || message.trim() === '') {
      problems.push(`${key}: not a message`);
      continue;
    }
    if (message.includes("'")) problems.push(`${key}: ASCII apostrophe (quotes ICU syntax)`);
    let shape: Shape;
    try {
      shape = shapeOf(message);
    } catch (error) {
      problems.push(`${key}: does not parse (${String(error)})`);
      continue;
    }
    const english = shapeOf(mainMessages[key]);
    if ([...shape.names].sort().join() !== [...english.names].sort().join()) {
      problems.push(`${key}: placeholders ${[...shape.names]} instead of ${[...english.names]}`);
    }
    for (const name of english.plurals.keys()) {
      const missing = categories.filter((category) => !shape.plurals.get(name)?.has(category));
      if (missing.length > 0) problems.push(`${key}: plural ${name} lacks ${missing}`);
      const exact = [...(english.plurals.get(name) ?? [])].filter((s) => s.startsWith('='));
      const lost = exact.filter((selector) => !shape.plurals.get(name)?.has(selector));
      if (lost.length > 0) problems.push(`${key}: plural ${name} lacks English's ${lost}`);
    }
    for (const [name, choices] of english.selects) {
      const translated = [...(shape.selects.get(name) ?? [])].sort().join();
      if (translated !== [...choices].sort().join()) problems.push(`${key}: select ${name}`);
    }
  }
  return problems;
}

describe('the English main catalogue', () => {
  it('parses, with an other case in every plural, and no ASCII apostrophe', () => {
    expect(problemsOf(SOURCE_LOCALE, mainMessages)).toEqual([]);
  });

  it('has a bundled translation and a file for every translated locale, and no others', () => {
    const tags = TRANSLATED.map((info) => info.tag).sort();
    expect(Object.keys(MAIN_TRANSLATIONS).sort()).toEqual(tags);
    const files = readdirSync(LOCALE_DIR).map((name) => name.replace(/\.json$/, ''));
    expect(files.sort()).toEqual(tags);
  });
});

describe('the check', () => {
  it('finds a wrong placeholder, a missing plural form, a missing key and an apostrophe', () => {
    const damaged: Record<string, unknown> = { ...readLocale('pl') };
    damaged['keyOrigin.carry'] = 'Wyślij klucz do {do}';
    damaged['notify.summaryImages'] = '{count, plural, one {# obraz} other {# obrazy}}';
    damaged['menu.quit'] = "Zakończ {app}'";
    delete damaged['menu.zoom'];
    expect(problemsOf('pl', damaged)).toEqual([
      'menu.quit: ASCII apostrophe (quotes ICU syntax)',
      'menu.zoom: not a message',
      'notify.summaryImages: plural count lacks few,many',
      'keyOrigin.carry: placeholders do instead of to',
    ]);
  });
});

describe.each(TRANSLATED.map((info) => info.tag))('the %s main catalogue', (tag) => {
  const translation = readLocale(tag);

  it('has exactly the English keys, in the English order', () => {
    expect(Object.keys(translation)).toEqual(KEYS);
  });

  it('has messages that parse, with English placeholders and every plural form', () => {
    expect(problemsOf(tag, translation)).toEqual([]);
  });

  it('gives each top-level menu one access key, none shared', () => {
    const keys = MENU_NAMES.map((key) => accessKey(String(translation[key])));
    expect(keys.every((key) => key !== null)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is what the catalogue shows, filled in', () => {
    const catalogue = new MainCatalogue(localeInfo(tag) as LocaleInfo, MAIN_TRANSLATIONS[tag]);
    expect(catalogue.text('menu.newPrompt')).toBe(translation['menu.newPrompt']);
    const carry = catalogue.text('keyOrigin.carry', { to: 'evil.example:8443' });
    expect(carry).toContain('evil.example:8443');
    expect(carry).not.toBe(mainMessages['keyOrigin.carry'].replace('{to}', 'evil.example:8443'));
  });
});

describe('the pseudo-locale and the fallback', () => {
  it('accents and lengthens English, keeping placeholders and plural forms', () => {
    const pseudo = new MainCatalogue(localeInfo(PSEUDO_LOCALE) as LocaleInfo, undefined);
    const text = pseudo.text('keyOrigin.carry', { to: 'evil.example' });
    expect(text).toMatch(/^\[Šéñđ ţĥé ķéý ţö ~+evil\.example\]$/);
    expect(pseudo.text('notify.imagesReady', { count: 3 })).toMatch(/^\[3 íɱáĝéš ŕéáđý~+\]$/);
  });

  it('shows English for an entry that is missing, does not parse or lacks a placeholder', () => {
    const german = new MainCatalogue(localeInfo('de') as LocaleInfo, {
      'menu.tasks': 'Aufgaben',
      'menu.gallery': '{broken',
      'keyOrigin.carry': 'Schlüssel an {ziel} senden',
      'not.a.key': 'x',
      'menu.search': 42,
    });
    expect(german.text('menu.tasks')).toBe('Aufgaben');
    expect(german.text('menu.gallery')).toBe('Gallery');
    expect(german.text('keyOrigin.carry', { to: 'a.example' })).toBe('Send the key to a.example');
    expect(german.text('menu.search')).toBe('Search');
    expect(german.text('menu.openLogs')).toBe('Open Logs Folder');
  });

  it('uses each language’s plural rules', () => {
    const russian = new MainCatalogue(localeInfo('ru') as LocaleInfo, MAIN_TRANSLATIONS['ru']);
    const arabic = new MainCatalogue(localeInfo('ar') as LocaleInfo, MAIN_TRANSLATIONS['ar']);
    const forms = [1, 21, 2, 5].map((count) =>
      russian.text('notify.summaryImages', { count }).replace(/\d+/, '#'),
    );
    expect(forms).toEqual([
      '# изображение готово',
      '# изображение готово',
      '# изображения готовы',
      '# изображений готово',
    ]);
    expect(arabic.text('notify.summaryImages', { count: 2 })).toBe('صورتان جاهزتان');
    expect(russian.text('notify.imagesReady', { count: 1 })).toBe('Изображение готово');
  });
});
