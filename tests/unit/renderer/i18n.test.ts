import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paramFromText } from '../../../shared/domain/model-params';
import { mainMessages } from '../../../shared/i18n/main-messages';
import {
  catalogue,
  formatBytes,
  formatDateTime,
  formatDecimal,
  formatDuration,
  formatNumber,
  moneyLocales,
  setCatalogue,
  t,
  type MessageKey,
} from '../../../renderer/i18n';
import { common } from '../../../renderer/i18n/en/common';
import { compare } from '../../../renderer/i18n/en/compare';
import { edit } from '../../../renderer/i18n/en/edit';
import { compose } from '../../../renderer/i18n/en/compose';
import { costs } from '../../../renderer/i18n/en/costs';
import { gallery } from '../../../renderer/i18n/en/gallery';
import { settings } from '../../../renderer/i18n/en/settings';
import { shell } from '../../../renderer/i18n/en/shell';
import { tasks } from '../../../renderer/i18n/en/tasks';
import { triage } from '../../../renderer/i18n/en/triage';
import { maskEditor } from '../../../renderer/i18n/en/mask-editor';
import { REPO_ROOT } from '../../support/source-files';

const RENDERER = join(REPO_ROOT, 'renderer');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'i18n' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('t()', () => {
  afterEach(() => setCatalogue({}));

  it('fills placeholders and formats numbers for the locale', () => {
    expect(t('compose.submitMany', { count: 3 })).toBe('Generate 3');
    expect(t('tasks.count', { count: 1 })).toBe('1 task');
    expect(t('tasks.count', { count: 100_000 })).toBe('100,000 tasks');
    expect(t('tasks.completed.images', { count: 0 })).toBe('No images');
  });

  it('uses a translation where it has the key and English elsewhere', () => {
    setCatalogue({ 'compose.submit': 'Générer' });
    expect(t('compose.submit')).toBe('Générer');
    expect(t('common.cancel')).toBe('Cancel');
  });

  it('formats sizes and durations with locale units', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(65_000)).toBe('1m 5s');
    expect(formatDuration(7_260_000)).toBe('2h 1m');
    expect(formatNumber(1234.56)).toBe('1,234.6');
  });

  it('writes an option’s number with every decimal it has, read back as the same number', () => {
    // Six decimals at most showed a default of 1e-7 as 0 (the form's placeholder, task details).
    expect(formatDecimal(1e-7)).toBe('0.0000001');
    expect(formatDecimal(-2.5e-7)).toBe('-0.00000025');
    expect(formatDecimal(0.1)).toBe('0.1');
    expect(formatDecimal(1500)).toBe('1500');
    expect(formatDecimal(9_007_199_254_740_991)).toBe('9007199254740991');
    const spec = { type: 'number', min: -1e6, max: 1e6 } as const;
    fc.assert(
      fc.property(
        fc
          .double({ min: -1e6, max: 1e6, noNaN: true })
          .filter((v) => v === 0 || Math.abs(v) > 1e-80),
        (value) => {
          expect(paramFromText(spec, formatDecimal(value))).toBe(value);
        },
      ),
    );
  });
});

/** The browser's word that the system's languages changed (the page reads them again). */
const languagesChanged = () => window.dispatchEvent(new Event('languagechange'));

describe('locale formatters', () => {
  const { DateTimeFormat, NumberFormat } = Intl;
  afterEach(() => {
    Intl.DateTimeFormat = DateTimeFormat;
    Intl.NumberFormat = NumberFormat;
    vi.restoreAllMocks();
    languagesChanged();
  });

  it('builds each formatter once per locale, not once per value', () => {
    const built = { dates: 0, numbers: 0 };
    Intl.DateTimeFormat = class extends DateTimeFormat {
      constructor(...args: ConstructorParameters<typeof DateTimeFormat>) {
        super(...args);
        built.dates += 1;
      }
    } as typeof DateTimeFormat;
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...args: ConstructorParameters<typeof NumberFormat>) {
        super(...args);
        built.numbers += 1;
      }
    } as typeof NumberFormat;
    // English shown on a British system: dates take the system's region.
    const language = vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    languagesChanged();
    const expected = new DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
    const times = Array.from({ length: 50 }, (_, n) => Date.UTC(2026, 0, 1 + n, 12));
    expect(times.map(formatDateTime)).toEqual(times.map((ms) => expected.format(ms)));
    for (let s = 0; s < 50; s += 1) formatDuration(s * 61_000);
    expect(built.dates).toBe(1);
    // Minutes and seconds: one unit formatter each.
    expect(built.numbers).toBe(2);
    // Another locale gets its own.
    language.mockReturnValue('en-AU');
    languagesChanged();
    const australian = new DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short' });
    expect(formatDateTime(times[0]!)).toBe(australian.format(times[0]));
    expect(built.dates).toBe(2);
  });

  it("reads the system's languages once, and again only when the browser says they changed", () => {
    const language = vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB', 'fr']);
    const reads = () => language.mock.calls.length + languages.mock.calls.length;
    languagesChanged();
    // Read once each as the shown locale was made again for them.
    expect(reads()).toBe(2);
    const noon = Date.UTC(2026, 0, 1, 12);
    const options = { dateStyle: 'medium', timeStyle: 'short' } as const;
    const british = new DateTimeFormat('en-GB', options).format(noon);
    const american = new DateTimeFormat('en-US', options).format(noon);
    expect(british).not.toBe(american);
    // A screen's worth of messages and formats: not one more read of the system's languages.
    for (let n = 0; n < 300; n += 1) {
      t('tasks.count', { count: n });
      formatNumber(n / 3);
      formatDuration(n * 1_000);
    }
    expect(formatDateTime(noon)).toBe(british);
    expect(moneyLocales()).toEqual(['en-GB', 'en']);
    expect(reads()).toBe(2);
    // The system's languages change: once the browser says so, dates and amounts follow them.
    language.mockReturnValue('en-US');
    languages.mockReturnValue(['en-US']);
    languagesChanged();
    expect(formatDateTime(noon)).toBe(american);
    expect(moneyLocales()).toEqual(['en-US', 'en']);
    expect(reads()).toBe(4);
  });

  it.each([
    ['a POSIX spelling', 'en_GB', ['en_GB.UTF-8@euro', 'en_GB']],
    ['tags that are none', 'en-', ['C', 'en-GB-', '', 'en-GB']],
  ])("reads the system's languages as well-formed tags: %s", (_, first, rest) => {
    // `new Intl.DateTimeFormat('en_GB')` throws: every date and number on the page threw with it.
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(first);
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(rest);
    languagesChanged();
    const noon = Date.UTC(2026, 0, 1, 12);
    const options = { dateStyle: 'medium', timeStyle: 'short' } as const;
    expect(formatDateTime(noon)).toBe(new DateTimeFormat('en-GB', options).format(noon));
    expect(formatNumber(1234.5)).toBe(new NumberFormat('en-GB').format(1234.5));
    expect(moneyLocales()).toEqual(['en-GB', 'en']);
  });
});

describe('the catalogue', () => {
  const sources = sourceFiles(RENDERER).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('has every key that a component passes to t() as a literal', () => {
    const missing: string[] = [];
    let found = 0;
    for (const { path, text } of sources) {
      for (const match of text.matchAll(/\bt\(\s*'([^']+)'/g)) {
        found += 1;
        if (!(match[1]! in catalogue))
          missing.push(`${path.replace(RENDERER, 'renderer')}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
    // The scan really reads the components (it is not vacuously empty).
    expect(found).toBeGreaterThan(150);
  });

  it('has every key named as a MessageKey literal in the code (labels passed around)', () => {
    const prefixes =
      /'((?:app|common|error|nav|banner|toasts|announce|compose|tasks|settings)\.[\w.]+)'/g;
    const missing: string[] = [];
    for (const { path, text } of sources) {
      if (path.includes('/features/gallery/')) continue;
      for (const match of text.matchAll(prefixes)) {
        // A sentence of main's catalogue the window builds or recognises itself (`sentence()`
        // from shared/i18n, typed by MainMessageKey) is named from that catalogue.
        if (!(match[1]! in catalogue) && !Object.hasOwn(mainMessages, match[1]!))
          missing.push(`${path.replace(RENDERER, 'renderer')}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('holds every sentence the window shows: no English sentence is written in the code', () => {
    // A quoted capitalised phrase ending like a sentence, outside comments.
    const sentence = /(['"`])[A-Z][a-z]+(?: [\w'’,-]+)+[.…!?]\1/g;
    const written: string[] = [];
    for (const { path, text } of sources) {
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const match of code.matchAll(sentence)) {
        written.push(`${path.replace(RENDERER, 'renderer')}: ${match[0]}`);
      }
    }
    expect(written).toEqual([]);
    // The pattern finds a sentence where there is one (it is not vacuously empty).
    expect("'The gallery could not be read.'".match(sentence)).toHaveLength(1);
  });

  it('is merged from parts that never define the same key twice', () => {
    const parts = [
      common,
      shell,
      compose,
      tasks,
      settings,
      gallery,
      costs,
      triage,
      compare,
      maskEditor,
      edit,
    ];
    const counted = parts.flatMap((part) => Object.keys(part));
    expect(counted.length).toBe(new Set(counted).size);
    expect(Object.keys(catalogue).length).toBe(counted.length);
  });

  it('has no empty message and no unbalanced placeholder', () => {
    for (const [key, text] of Object.entries(catalogue)) {
      expect(text.trim(), key).not.toBe('');
      expect(text.split('{').length, key).toBe(text.split('}').length);
    }
  });

  it('has a status label for every task status the list can show', () => {
    const statuses = [
      'submitting',
      'processing',
      'completed',
      'failed',
      'submit_failed',
      'submit_unknown',
      'not_found',
    ];
    for (const status of statuses) expect(`tasks.status.${status}` in catalogue).toBe(true);
    for (const state of ['pending', 'saved', 'expired', 'invalid', 'deleted']) {
      expect((`tasks.image.state.${state}` as MessageKey) in catalogue).toBe(true);
    }
  });
});

describe('messages of one language', () => {
  afterEach(() => vi.restoreAllMocks());

  it('ask ICU which locales it supports once per language, not once per message', () => {
    const supported = vi.spyOn(Intl.NumberFormat, 'supportedLocalesOf');
    // Keys no other test here formats, so each is compiled now.
    const keys: MessageKey[] = [
      'tasks.cancel.canceled',
      'tasks.cancel.ended',
      'tasks.stop.done',
      'tasks.cancel.progress',
    ];
    const texts = keys.map((key) => t(key));
    expect(texts.every((text) => text.length > 0)).toBe(true);
    // Each message is built twice (parsed, then with its plain arguments localized): at most
    // one question for the language, none when an earlier test already asked it.
    expect(supported.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
