/**
 * The message catalogue and locale formatting. Every user-visible string comes from here, so a
 * translation is a new set of catalogue parts, not a change to components.
 *
 * Messages take `{name}` placeholders and one level of plural:
 * `{count, plural, one {# task} other {# tasks}}` (`#` is the formatted number).
 */
import { common } from './en/common';
import { compose } from './en/compose';
import { gallery } from './en/gallery';
import { settings } from './en/settings';
import { shell } from './en/shell';
import { tasks } from './en/tasks';

/** The English catalogue, merged from its parts (each part owns a key prefix). */
export const catalogue = {
  ...common,
  ...shell,
  ...compose,
  ...tasks,
  ...settings,
  ...gallery,
} as const;

export type MessageKey = keyof typeof catalogue;
export type MessageParams = Readonly<Record<string, string | number>>;

let messages: Readonly<Record<MessageKey, string>> = catalogue;

/** Replaces the catalogue (a translation); keys it lacks fall back to English. */
export function setCatalogue(translation: Partial<Record<MessageKey, string>>): void {
  messages = { ...catalogue, ...translation };
}

/** The user's locale, as the window reports it. */
export function locale(): string {
  return (typeof navigator !== 'undefined' && navigator.language) || 'en';
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

function pluralCategory(value: number): Intl.LDMLPluralRule {
  return formatter('plural', {}, (tag) => new Intl.PluralRules(tag)).select(value);
}

/** The message for `key` with its placeholders filled in. */
export function t(key: MessageKey, params?: MessageParams): string {
  const text = messages[key] ?? key;
  return params ? format(text, params) : text;
}

const PLURAL = /\{(\w+), plural,((?:\s*[=\w]+\s*\{[^{}]*(?:\{\w+\}[^{}]*)*\})+)\s*\}/g;
const OPTION = /([=\w]+)\s*\{([^{}]*(?:\{\w+\}[^{}]*)*)\}/g;
const PLACEHOLDER = /\{(\w+)\}/g;

function format(text: string, params: MessageParams): string {
  const plurals = text.replace(PLURAL, (whole, name: string, body: string) => {
    const value = params[name];
    if (typeof value !== 'number') return whole;
    const options = new Map<string, string>();
    for (const [, selector, option] of body.matchAll(OPTION)) {
      if (selector !== undefined && option !== undefined) options.set(selector, option);
    }
    const category = pluralCategory(value);
    const chosen = options.get(`=${value}`) ?? options.get(category) ?? options.get('other') ?? '';
    return chosen.replace(/#/g, formatNumber(value));
  });
  return plurals.replace(PLACEHOLDER, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(value) : value;
  });
}

/** A whole or decimal number in the user's locale; a dash for a value that is not a number. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return t('format.unknown');
  return numberFormat({ maximumFractionDigits: 1 }).format(value);
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

/** A date without time, e.g. "21 Nov 2025". */
export function formatDate(ms: number): string {
  return formatDateWith({ dateStyle: 'medium' }, ms);
}

/** A date and time, e.g. "21 Nov 2025, 14:03". */
export function formatDateTime(ms: number): string {
  return formatDateWith({ dateStyle: 'medium', timeStyle: 'short' }, ms);
}

/** A time of day alone, for today's entries. */
export function formatTime(ms: number): string {
  return formatDateWith({ timeStyle: 'short' }, ms);
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
