/**
 * The message catalogue and locale formatting. Every user-visible string comes from here, so a
 * translation is a new set of catalogue parts, not a change to components.
 *
 * Messages are ICU MessageFormat (formatted by FormatJS's intl-messageformat): `{name}`
 * placeholders, `{count, plural, one {# task} other {# tasks}}` (`#` is the formatted number) and
 * `{kind, select, …}`. English is compiled in; another language loads on demand (`applyLocale`)
 * and every message it lacks or gets wrong shows in English.
 */
import { common } from './en/common';
import { compare } from './en/compare';
import { compose } from './en/compose';
import { costs } from './en/costs';
import { edit } from './en/edit';
import { gallery } from './en/gallery';
import { maskEditor } from './en/mask-editor';
import { settings } from './en/settings';
import { shell } from './en/shell';
import { tasks } from './en/tasks';
import { triage } from './en/triage';
import { IntlMessageFormat } from 'intl-messageformat';
import { loadCatalogue, loadMainCatalogue } from './catalogues';
import { MainCatalogue } from '../../shared/i18n/main-catalogue';
import { mainMessages } from '../../shared/i18n/main-messages';
import { sentenceText, type Sentence } from '../../shared/i18n/sentence';
import { compileMessage, textParams } from '../../shared/i18n/localized-numbers';
import { onSystemLanguagesChange, systemLocales } from './system-languages';
import { DIMENSION_DIGITS, dimensionsText, sizeParts } from '../../shared/i18n/dimensions';
import type { CostUnit } from '../../shared/domain/task-cost';
import {
  LOCALES,
  PSEUDO_LOCALE,
  resolveLocale,
  SOURCE_LOCALE,
  type LocaleInfo,
} from '../../shared/domain/locales';

/** The English catalogue, merged from its parts (each part owns a key prefix). */
export const catalogue = {
  ...common,
  ...shell,
  ...compose,
  ...tasks,
  ...settings,
  ...gallery,
  ...costs,
  ...triage,
  ...compare,
  ...edit,
  ...maskEditor,
} as const;

export type MessageKey = keyof typeof catalogue;
export type MessageParams = Readonly<Record<string, string | number>>;

/** The locale in use: its tag, direction and messages (English fills what they lack). */
interface ActiveLocale {
  readonly info: LocaleInfo;
  readonly messages: Readonly<Record<string, string>>;
  /** The tag dates, numbers and sizes are formatted for ({@link formatTagFor}). */
  readonly formatTag: string;
  /** The main process's sentences (errors it raised) in this locale, and their own messages. */
  readonly main: MainCatalogue;
  readonly mainTranslation: Readonly<Record<string, string>> | undefined;
}

let active: ActiveLocale = activeFor(LOCALES[0] as LocaleInfo, {}, undefined);
const listeners = new Set<() => void>();

/** The locale whose messages are shown. */
export function activeLocale(): LocaleInfo {
  return active.info;
}

/** Calls `listener` after each change of locale; returns the unsubscribe. */
export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The locale `info` shows with these messages, formatted for the system's languages now. */
function activeFor(
  info: LocaleInfo,
  translation: Readonly<Record<string, string>>,
  mainTranslation: Readonly<Record<string, string>> | undefined,
): ActiveLocale {
  const formatTag = formatTagFor(info);
  return {
    info,
    messages: { ...catalogue, ...translation },
    formatTag,
    // Main's sentences write numbers and money for the same locale as the window's own text.
    main: new MainCatalogue(info, mainTranslation, formatTag),
    mainTranslation,
  };
}

function use(
  info: LocaleInfo,
  translation: Readonly<Record<string, string>>,
  mainTranslation: Readonly<Record<string, string>> | undefined = undefined,
): void {
  active = activeFor(info, translation, mainTranslation);
  compiled.clear();
  formatters.clear();
  if (typeof document !== 'undefined') {
    document.documentElement.lang = info.tag;
    document.documentElement.dir = info.dir;
  }
  for (const listener of listeners) listener();
}

/** Replaces the catalogue (a translation, kept in the current locale); English fills the rest. */
export function setCatalogue(translation: Partial<Record<MessageKey, string>>): void {
  const kept = Object.fromEntries(
    Object.entries(translation).filter((entry): entry is [string, string] => !!entry[1]),
  );
  use(active.info, kept, undefined);
}

/**
 * Shows `preference` (a locale tag, or `system` for the system's languages): loads its messages
 * and then switches every later `t()` call, the page's `lang` and its direction at once. A
 * preference Pictor does not speak, or a catalogue that fails to load, leaves English.
 */
export async function applyLocale(
  preference: string,
  systemLanguages: readonly string[] = systemLocales(),
): Promise<LocaleInfo> {
  const info = resolveLocale(preference, systemLanguages);
  if (info.tag === active.info.tag) return info;
  // Only the latest request switches: a slow catalogue must not replace a later choice.
  const request = ++requests;
  let translation: Record<string, string> | null;
  let mainTranslation: Record<string, string> | undefined;
  try {
    [translation, mainTranslation] = await Promise.all([
      loadCatalogue(info.tag, catalogue),
      // Without it only error sentences stay English: never a reason to leave the locale.
      loadMainCatalogue(info.tag, mainMessages).catch(() => undefined),
    ]);
  } catch {
    translation = null;
  }
  if (request !== requests) return active.info;
  if (translation) use(info, translation, mainTranslation);
  else use(LOCALES[0] as LocaleInfo, {});
  return active.info;
}

let requests = 0;

// Other system languages: the shown locale is made again for them (its formats and main's
// sentences take the new region; no catalogue is loaded again).
onSystemLanguagesChange(() => use(active.info, active.messages, active.mainTranslation));

/**
 * The locale dates, numbers and sizes are formatted for: the system's own (with its region, say
 * en-GB) when it speaks the shown language, else the shown language.
 */
function locale(): string {
  return active.formatTag;
}

/** {@link locale} for `info` (a hoisted declaration: the first catalogue is made with it). */
function formatTagFor(info: LocaleInfo | undefined): string {
  const tag = info?.tag ?? SOURCE_LOCALE;
  const shown = tag === PSEUDO_LOCALE ? SOURCE_LOCALE : tag;
  const base = shown.split('-')[0];
  const system = systemLocales().find((candidate) => candidate.split(/[-_]/)[0] === base);
  return system && !shown.includes('-') ? system : shown;
}

/**
 * Intl formatters, one per locale and options. Building one costs far more than using it (the
 * first one a page builds loads the locale's data, about 20 ms here), and a screen of task rows
 * formats a date and a duration per row: building one per call was most of the script time of
 * drawing the first rows.
 */
const formatters = new Map<string, unknown>();

function formatter<T>(kind: string, options: object, build: (tag: string) => T): T {
  const tag = locale();
  const key = `${kind}|${tag}|${JSON.stringify(options)}`;
  let known = formatters.get(key) as T | undefined;
  if (!known) {
    known = build(tag);
    formatters.set(key, known);
  }
  return known;
}

function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return formatter('number', options, (tag) => new Intl.NumberFormat(tag, options));
}

/**
 * A date formatter keeps the time zone it was made in; keyed by the current UTC offset (cheap to
 * read), a trip to another zone gets a new one instead of dates in the old zone.
 */
function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const zone = new Date().getTimezoneOffset();
  return formatter(`date${zone}`, options, (tag) => new Intl.DateTimeFormat(tag, options));
}

/**
 * Compiled messages of the current locale (`t:` its own, `e:` English as the fallback), by key: a
 * message is parsed once per locale, not once per row that shows it.
 */
const compiled = new Map<string, IntlMessageFormat | null>();

/**
 * FormatJS resolves the locale of every message it builds by asking ICU which locales it
 * supports (`Intl.NumberFormat.supportedLocalesOf`, then a new `Intl.Locale`), twice per message
 * here: the start-up's first frame builds a few hundred, and a trace of a start showed the lookup
 * among the page's dearest functions (the start-up row's medians did not move beyond their noise).
 * The answer for a tag does not change while the page lives, and an `Intl.Locale` is immutable, so
 * each tag is resolved once.
 */
const resolveLocaleOnce = IntlMessageFormat.resolveLocale;
const resolvedLocales = new Map<string, Intl.Locale | undefined>();
IntlMessageFormat.resolveLocale = (locales) => {
  const key = typeof locales === 'string' ? locales : locales.join('\u0000');
  if (resolvedLocales.has(key)) return resolvedLocales.get(key);
  const locale = resolveLocaleOnce(locales);
  resolvedLocales.set(key, locale);
  return locale;
};

function compile(cacheKey: string, text: string, tag: string): IntlMessageFormat | null {
  const known = compiled.get(cacheKey);
  if (known !== undefined) return known;
  // Plain `{n}` arguments read their values as written for the locale (localized-numbers.ts).
  const message = compileMessage(text, tag);
  compiled.set(cacheKey, message);
  return message;
}

function formatWith(
  cacheKey: string,
  text: string,
  tag: string,
  params: MessageParams,
): string | null {
  const message = compile(cacheKey, text, tag);
  if (!message) return null;
  try {
    const digits = numberFormat({ maximumFractionDigits: 1 });
    const result = message.format(textParams(params, (value) => digits.format(value)));
    return typeof result === 'string' ? result : null;
  } catch {
    return null;
  }
}

/**
 * What a failure the main process reported reads as in the shown language: its catalogue
 * sentence when it has one (an IPC error, a task's or an image's stored error), else its message
 * as stored. Never throws.
 */
export function errorText(said: {
  readonly message: string;
  readonly sentence?: Sentence | undefined;
}): string {
  return sentenceText(active.main, said);
}

/** A sentence of the main catalogue (shared/i18n/sentence.ts) in the shown language. */
export function sentenceShown(said: Sentence): string {
  return sentenceText(active.main, { message: '', sentence: said });
}

/** An image's stored failure (`ImageRecord.error`) in the shown language; `''` when none. */
export function imageErrorText(image: {
  readonly error?: string | undefined;
  readonly errorSentence?: Sentence | undefined;
}): string {
  return errorText({ message: image.error ?? '', sentence: image.errorSentence });
}

/**
 * The message for `key` with its placeholders filled in (ICU MessageFormat: `{name}`, plural,
 * select, number). Never throws: a translation that does not parse or lacks a value falls back to
 * English, and English that cannot be filled shows its text as written.
 */
export function t(key: MessageKey, params: MessageParams = {}): string {
  const text = active.messages[key] ?? catalogue[key] ?? key;
  const english = catalogue[key] ?? key;
  const shown = active.info.tag === PSEUDO_LOCALE ? SOURCE_LOCALE : locale();
  return (
    formatWith(`t:${key}`, text, shown, params) ??
    (text === english ? null : formatWith(`e:${key}`, english, SOURCE_LOCALE, params)) ??
    text
  );
}

/**
 * An amount of money as the window writes it everywhere (`$0.25`, `0,25 €`, `3 credits`): the
 * same writing as main's sentences (shared/i18n/money.ts), in the shown locale.
 */
export function formatMoney(micros: number, unit: CostUnit): string {
  return active.main.money(micros, unit);
}

/**
 * A number as one would type it in the shown locale: no grouping, every decimal it has (`1500`,
 * `1,5`, `0,0000001`): the shortest digits that read back as the same number, as the form and
 * the CLI read it (a model option's range, default or sent value; down to 1e-80, past which
 * 100 decimals, Intl's most, round it). Six decimals at most showed
 * a default of 1e-7 as `0`, and the range of 0.0000001 to 1 as 0 to 1.
 */
export function formatDecimal(value: number): string {
  if (!Number.isFinite(value)) return t('format.unknown');
  return numberFormat({ maximumFractionDigits: 100, useGrouping: false }).format(value);
}

/** The decimal separator of the shown locale (`.`, `,`, `٫`), for reading typed amounts. */
export function decimalSeparator(): string {
  const parts = numberFormat({ minimumFractionDigits: 1 }).formatToParts(1.5);
  return parts.find((part) => part.type === 'decimal')?.value ?? '.';
}

/** The locale tags amounts are written for (the shown one, and the language's own). */
export function moneyLocales(): readonly string[] {
  const shown = active.info.tag === PSEUDO_LOCALE ? SOURCE_LOCALE : active.info.tag;
  return [...new Set([locale(), shown])];
}

/** A whole or decimal number in the user's locale; a dash for a value that is not a number. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return t('format.unknown');
  return numberFormat({ maximumFractionDigits: 1 }).format(value);
}

/**
 * A width and height as the window writes every size (a request's, an image's, a mask's), as
 * main's sentences write theirs: shared/i18n/dimensions.ts, the one home of that writing.
 */
export function formatDimensions(width: number, height: number): string {
  if (!Number.isFinite(width) || !Number.isFinite(height)) return t('format.unknown');
  return dimensionsText(width, height, numberFormat(DIMENSION_DIGITS));
}

/**
 * An image size as the request named it (`1024x1024`), written as {@link formatDimensions};
 * anything that is not two whole numbers is shown as written (a custom value the service understands).
 */
export function formatSize(size: string): string {
  const parts = sizeParts(size);
  return parts ? formatDimensions(parts[0], parts[1]) : size;
}

/**
 * Formatters never throw: the values come from records, and a record can hold anything (a
 * compromised main process, an old build). `Intl.DateTimeFormat` throws a RangeError for a
 * time `Date` cannot hold (beyond ±8.64e15 ms, NaN); such a date reads "unknown date".
 */
function formatDateWith(options: Intl.DateTimeFormatOptions, ms: number): string {
  if (typeof ms !== 'number' || Number.isNaN(new Date(ms).getTime()))
    return t('format.unknownDate');
  return dateFormat(options).format(ms);
}

/** A date and time, e.g. "21 Nov 2025, 14:03". */
export function formatDateTime(ms: number): string {
  return formatDateWith({ dateStyle: 'medium', timeStyle: 'short' }, ms);
}

/**
 * A day (`YYYY-MM-DD`) as {@link formatDateTime} writes its date ("21 Nov 2025"), so a day's
 * label and a time on it read alike; '' for none.
 */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return '';
  const ms = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime();
  return formatDateWith({ dateStyle: 'medium' }, ms);
}

/** A day in the locale's numeric form and order ("31.12.2025", "12/31/2025"); '' for none. */
export function formatDayNumeric(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return '';
  const ms = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime();
  return formatDateWith({ year: 'numeric', month: '2-digit', day: '2-digit' }, ms);
}

/** A day as the locale writes it in numbers, in parts: its day, month, year and the marks between. */
export function dayParts(): Intl.DateTimeFormatPart[] {
  return dateFormat({ year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(0);
}

/** The order the locale writes a day's parts in, and its ten digits (for reading one back). */
export function dayWriting(): { order: Array<'day' | 'month' | 'year'>; digits: string[] } {
  const order = dayParts()
    .map((part) => part.type)
    .filter((type): type is 'day' | 'month' | 'year' => ['day', 'month', 'year'].includes(type));
  const digits = numberFormat({ useGrouping: false });
  return { order, digits: Array.from({ length: 10 }, (_, value) => digits.format(value)) };
}

/** The machine-readable form of a date (a `<time dateTime>`), or undefined when there is none. */
export function isoDate(ms: number): string | undefined {
  const date = new Date(ms);
  return typeof ms === 'number' && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A file size with a locale unit, e.g. "1.4 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return t('format.unknown');
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return numberFormat({
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

function unitPart(value: number, unit: 'hour' | 'minute' | 'second'): string {
  return numberFormat({
    style: 'unit',
    unit,
    unitDisplay: 'narrow',
  }).format(value);
}

/** A length of time, e.g. "42s", "3m 05s", "2h 10m" (locale units, seconds dropped past an hour). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return t('format.unknown');
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${unitPart(hours, 'hour')} ${unitPart(minutes, 'minute')}`;
  if (minutes > 0) return `${unitPart(minutes, 'minute')} ${unitPart(seconds, 'second')}`;
  return unitPart(seconds, 'second');
}
