/**
 * Money as people read it, one way everywhere: an amount in a currency as the reader's locale
 * writes money (`$0.25`, `0,25 €`, `٠٫٢٥ US$`), an amount of credits as the locale's number and
 * the word (`3 credits`). The window's costs, main's sentences (their amounts named in
 * {@link MONEY_PARAMS}) and the CLI's lines all come through {@link formatMoney}.
 *
 * Exact for every stored amount: the number is handed to Intl as its decimal text, never as a
 * float, and up to six decimals are shown (the smallest step, cost-amounts.ts), so nothing a
 * user set reads as 0.
 */
import { formatMicros, readCostUnit, type CostUnit } from '../domain/task-cost';
import type { MainMessageKey } from './main-messages';

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(tag: string, unit: CostUnit): Intl.NumberFormat {
  const key = `${tag}|${unit}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.NumberFormatOptions =
      unit === 'credits'
        ? { maximumFractionDigits: 6 }
        : { style: 'currency', currency: unit, maximumFractionDigits: 6 };
    format = new Intl.NumberFormat(tag, options);
    formats.set(key, format);
  }
  return format;
}

/**
 * `micros` of `unit` as `tag` writes it; `credits` words an amount of credits (already written
 * as a number: `{amount} credits` in the reader's language).
 */
export function formatMoney(
  micros: number,
  unit: CostUnit,
  tag: string,
  credits: (amount: string) => string,
): string {
  const decimal = formatMicros(micros);
  try {
    // A decimal string is formatted exactly (Intl.NumberFormat v3), a float might not be.
    const amount = numberFormat(tag, unit).format(decimal as unknown as number);
    return unit === 'credits' ? credits(amount) : amount;
  } catch {
    return unit === 'credits' ? credits(decimal) : `${decimal} ${unit}`;
  }
}

/**
 * Main's sentences whose placeholders hold an amount in the sentence's `{unit}`, as a plain
 * decimal (`0.25`): the catalogue writes each as money in the reader's language, so a
 * translation writes `{cap}`, never `{cap} {unit}`.
 */
const MONEY_PARAMS: Partial<Record<MainMessageKey, readonly string[]>> = {
  'error.costs.hardCap': ['cap', 'spent', 'adding'],
  'error.costs.softCap': ['cap', 'spent', 'adding'],
  'capChange.raise': ['from', 'to'],
  'capChange.remove': ['from'],
  'capChange.price': ['cap'],
  'capChange.priceEach': ['amount'],
};

/** A plain decimal of a sentence (`0.25`) in micros; undefined for anything else. */
function microsOf(value: string | number | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,10}(\.\d{1,6})?$/.test(value)) return undefined;
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
}

/**
 * `params` with the amounts of `key`'s money placeholders written by `money`; values that are
 * not plain decimals, or a sentence without a known `unit`, stay as they are.
 */
export function withMoney(
  key: MainMessageKey,
  params: Readonly<Record<string, string | number>>,
  money: (micros: number, unit: CostUnit) => string,
): Readonly<Record<string, string | number>> {
  const names = MONEY_PARAMS[key];
  const unit = readCostUnit(params['unit']);
  if (!names || unit === undefined || params['unit'] !== unit) return params;
  const written: Record<string, string | number> = { ...params };
  for (const name of names) {
    const micros = microsOf(params[name]);
    if (micros !== undefined) written[name] = money(micros, unit);
  }
  return written;
}
