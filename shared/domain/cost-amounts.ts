/**
 * Amounts of prices and spending caps as people type them, and their bounds, declared here once:
 * the CLI's `prices`/`caps`, the window's forms, the IPC contract and the stored schemas all use
 * {@link COST_BOUNDS}, so no layer takes a value another refuses.
 *
 * {@link readTypedAmount} reads `0.05`, `0,05` (where the comma cannot be a thousands separator,
 * or where it is the window's decimal separator), `.05`, `$0.05`, `0,05 €`, `5 USD`, `3 credits`,
 * Arabic-Indic and Persian digits and the Arabic decimal separator. It never rounds: an amount
 * finer than the unit's smallest step is refused, so a typed `0.0000001` never becomes a free
 * price or a 0 cap. Each refusal names its problem; the caller words it with the value and the
 * allowed range (cost-args.ts for the CLI, settings/cost-choices.ts for the window).
 */
import { REQUEST_LIMITS } from './limits';
import {
  CREDIT_UNITS,
  CURRENCY_CODES,
  MAX_TASK_COST_MICROS,
  MAX_UNIT_TEXT,
  type CostUnit,
} from './task-cost';

/** What an amount is for: a price per image or megapixel, or a spending cap. */
export type AmountKind = 'price' | 'cap';

/** Whole millionths in one unit: every stored amount is a whole number of them. */
const MICROS_PER_UNIT = 1_000_000;

const ALL_UNITS: readonly CostUnit[] = [...CURRENCY_CODES, ...CREDIT_UNITS];

/** The bounds of what a user may set, in one place. */
export const COST_BOUNDS = {
  /**
   * The smallest step of an amount in each unit, in micros: one millionth, in every unit today
   * (a price per megapixel can be a small fraction of a cent, of a yen or of a credit).
   */
  stepMicros: Object.fromEntries(ALL_UNITS.map((unit) => [unit, 1])) as Record<CostUnit, number>,
  /** The most a price may be: what one task may cost (task-cost.ts). */
  priceMaxMicros: MAX_TASK_COST_MICROS,
  /** The most a cap may be: a thousand of the dearest tasks. */
  capMaxMicros: MAX_TASK_COST_MICROS * 1_000,
  /** A price's model name, in characters (a request's own limit). */
  model: REQUEST_LIMITS.model,
  /** A unit as typed (`USD`, `credits`), in characters, before it is looked up. */
  unit: MAX_UNIT_TEXT,
  /** An amount as typed, in characters. */
  amountText: 40,
} as const;

/** The range an amount of `kind` in `unit` may take, in micros. */
export interface AmountRange {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

export function amountRange(kind: AmountKind, unit: CostUnit): AmountRange {
  const max = kind === 'price' ? COST_BOUNDS.priceMaxMicros : COST_BOUNDS.capMaxMicros;
  return { min: 0, max, step: COST_BOUNDS.stepMicros[unit] };
}

/** Why a typed amount is refused. */
export type AmountProblem =
  | { readonly kind: 'empty' }
  | { readonly kind: 'notNumber' }
  | { readonly kind: 'negative' }
  /** More decimals than the unit's smallest step (never rounded away). */
  | { readonly kind: 'finerThanStep' }
  | { readonly kind: 'tooLarge' }
  /** `1,500` or `1.500` with the other separator: a thousand and a half, or one and a half. */
  | { readonly kind: 'ambiguous'; readonly whole: number; readonly decimal: number }
  /** A currency sign or code of another unit (`€5` for a price in USD). */
  | { readonly kind: 'otherUnit'; readonly sign: string };

export type AmountReading =
  | { readonly ok: true; readonly micros: number }
  | { readonly ok: false; readonly problem: AmountProblem };

export interface AmountContext {
  readonly unit: CostUnit;
  readonly kind: AmountKind;
  /** The decimal separator of the window's locale (`,` in German); `.` when absent (the CLI). */
  readonly decimal?: string;
  /** Locale tags whose currency signs are taken (`$`, `US$`, `€`); English's always are. */
  readonly locales?: readonly string[];
  /** More words that stand for the unit (the window's word for credits). */
  readonly words?: readonly string[];
}

/** Bidirectional marks a copied amount may carry (`‏0.15 US$`). */
const MARKS = /[\u200e\u200f\u061c\u2066-\u2069]/g;
/** Arabic-Indic (٠–٩) and Persian (۰–۹) digits. */
const EASTERN_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** The text with ASCII digits, `-` for minus signs, spaces for every kind of space. */
function normalized(text: string): string {
  return text
    .normalize('NFKC')
    .replace(MARKS, '')
    .replace(EASTERN_DIGITS, (digit) => String((digit.charCodeAt(0) & 0xf) % 10))
    .replace(/[\u2212\u2012\u2013\ufe63]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

const signCache = new Map<string, readonly string[]>();

/** How `tag` writes the sign of `currency` in one display, or undefined where Intl cannot. */
function currencySign(
  tag: string,
  currency: string,
  currencyDisplay: 'symbol' | 'narrowSymbol',
): string | undefined {
  try {
    const format = new Intl.NumberFormat(tag, { style: 'currency', currency, currencyDisplay });
    const sign = format.formatToParts(1).find((part) => part.type === 'currency')?.value;
    return sign ? normalized(sign).toLowerCase() : undefined;
  } catch {
    // A tag or currency this runtime does not know: its code still stands for it.
    return undefined;
  }
}

/** How `tag` writes the sign of `currency`, as a symbol and as a narrow symbol. */
function currencySigns(tag: string, currency: string): readonly string[] {
  const key = `${tag}|${currency}`;
  let signs = signCache.get(key);
  if (!signs) {
    const found = (['symbol', 'narrowSymbol'] as const).map((display) =>
      currencySign(tag, currency, display),
    );
    signs = [...new Set(found.filter((sign): sign is string => sign !== undefined))];
    signCache.set(key, signs);
  }
  return signs;
}

/** Every text that stands for `unit`, lower case: its code, signs, and its words. */
function signsOf(unit: CostUnit, context: AmountContext): Set<string> {
  const signs = new Set<string>([unit.toLowerCase()]);
  if (unit === 'credits') {
    for (const word of ['credit', 'credits', ...(context.words ?? [])])
      signs.add(normalized(word).toLowerCase());
    return signs;
  }
  for (const tag of ['en', 'en-GB', ...(context.locales ?? [])])
    for (const sign of currencySigns(tag, unit)) signs.add(sign);
  return signs;
}

/** The unit another sign stands for, if it is one Pictor knows. */
function otherUnitOf(sign: string, context: AmountContext): CostUnit | undefined {
  return ALL_UNITS.find(
    (unit) => unit !== context.unit && signsOf(unit, { ...context, unit }).has(sign),
  );
}

/** The number, its minus, and the sign before or after it; undefined when that is not the form. */
function split(text: string): { number: string; negative: boolean; sign: string } | undefined {
  const match = /^([^0-9.,\u066b]*?)([0-9.,\u066b]+)([^0-9.,\u066b]*)$/u.exec(text);
  if (!match) return undefined;
  const [, before = '', number = '', after = ''] = match;
  const negative = before.includes('-');
  const lead = before.replace('-', '').trim();
  const trail = after.trim();
  if (lead.includes('-') || trail.includes('-') || (lead !== '' && trail !== '')) return undefined;
  return { number, negative, sign: (lead || trail).toLowerCase() };
}

/** The digits before and after the decimal separator, or the problem with the separators. */
function decimalParts(
  number: string,
  decimal: string,
): { whole: string; fraction: string } | AmountProblem {
  // The Arabic decimal separator is only ever that.
  const text = number.replace(/\u066b/g, decimal);
  const separators = text.replace(/[0-9]/g, '');
  if (separators.length === 0) return { whole: text, fraction: '' };
  if (separators.length > 1 || !/[0-9]/.test(text)) return { kind: 'notNumber' };
  const [whole = '', fraction = ''] = text.split(separators);
  // Its own separator, or a point or comma that cannot group thousands: "0,05", ",5", "1,5".
  const grouping = separators !== decimal && fraction.length === 3 && /[1-9]/.test(whole);
  if (!grouping) return { whole, fraction };
  const wholeValue = Number(`${whole}${fraction}`);
  return { kind: 'ambiguous', whole: wholeValue, decimal: Number(`${whole}.${fraction}`) };
}

/** Whole and fractional digits as micros, or the problem with their size or precision. */
function microsOf(whole: string, fraction: string, range: AmountRange): AmountReading {
  const digits = fraction.replace(/0+$/, '');
  if (digits.length > 6) return { ok: false, problem: { kind: 'finerThanStep' } };
  const wholeDigits = whole.replace(/^0+/, '');
  if (wholeDigits.length > 12) return { ok: false, problem: { kind: 'tooLarge' } };
  const micros = Number(wholeDigits || '0') * MICROS_PER_UNIT + Number(digits.padEnd(6, '0'));
  if (micros % range.step !== 0) return { ok: false, problem: { kind: 'finerThanStep' } };
  if (micros > range.max) return { ok: false, problem: { kind: 'tooLarge' } };
  return { ok: true, micros };
}

/** Reads an amount of a price or a cap as typed (see the module's comment). */
export function readTypedAmount(text: string, context: AmountContext): AmountReading {
  const refuse = (problem: AmountProblem): AmountReading => ({ ok: false, problem });
  const plain = normalized(text.slice(0, COST_BOUNDS.amountText * 2));
  if (plain === '') return refuse({ kind: 'empty' });
  if (text.length > COST_BOUNDS.amountText) return refuse({ kind: 'notNumber' });
  const parts = split(plain);
  if (!parts) return refuse({ kind: 'notNumber' });
  if (parts.sign !== '' && !signsOf(context.unit, context).has(parts.sign)) {
    return refuse(
      otherUnitOf(parts.sign, context)
        ? { kind: 'otherUnit', sign: parts.sign }
        : { kind: 'notNumber' },
    );
  }
  const decimal = context.decimal === ',' ? ',' : '.';
  const number = decimalParts(parts.number, decimal);
  if ('kind' in number) return refuse(number);
  const reading = microsOf(number.whole, number.fraction, amountRange(context.kind, context.unit));
  if (parts.negative && (!reading.ok || reading.micros > 0)) return refuse({ kind: 'negative' });
  return reading;
}
