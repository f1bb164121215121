/**
 * What a task cost, and where Pictor learned it: the service said so (`reported`, naming the field
 * or header), Pictor estimated it from a price the user set (`estimated`), the service did not
 * bill it (`not_billed`: a refused submit, a failure the service does not charge for), the service
 * never bills (`free`: the built-in demo service), or nobody knows (`unknown`). Amounts are whole millionths of their unit (micros), so sums are exact; a
 * unit is a currency code or a credit unit, and amounts of different units are never added.
 *
 * Values a service sends are read here and nowhere else: a negative, NaN-like, huge or
 * over-precise amount, or a unit Pictor does not know, is refused with a short reason (never the
 * value itself), and the task simply has no reported cost.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/** Currencies a service may bill in (ISO 4217 codes). */
export const CURRENCY_CODES = [
  'USD',
  'EUR',
  'GBP',
  'CNY',
  'JPY',
  'CAD',
  'AUD',
  'CHF',
  'INR',
  'KRW',
  'BRL',
  'SGD',
  'HKD',
  'SEK',
] as const;
/** Units of services that sell credits instead of billing money. */
export const CREDIT_UNITS = ['credits'] as const;

/** This module's schemas are built on first use (lazy-schema.ts). */
export const costUnitSchema = lazySchema(() => z.enum([...CURRENCY_CODES, ...CREDIT_UNITS]));
export type CostUnit = (typeof CURRENCY_CODES)[number] | (typeof CREDIT_UNITS)[number];

/** Millionths of a unit: USD micros as Ideogram reports them, and every stored amount. */
const MICROS_PER_UNIT = 1_000_000;
/**
 * The most one task may cost: a million units. Far beyond any image's price, and small enough
 * that the sum of every task a library could hold stays an exact JavaScript integer.
 */
export const MAX_TASK_COST_MICROS = 1_000_000 * MICROS_PER_UNIT;

const microsSchema = () => z.number().int().min(0).max(MAX_TASK_COST_MICROS);

/** How a user's price counts: per image made, or per megapixel of the image size asked for. */
export const PRICE_BASES = ['image', 'megapixel'] as const;
export const priceBasisSchema = lazySchema(() => z.enum(PRICE_BASES));
export type PriceBasis = (typeof PRICE_BASES)[number];

export const taskCostSchema = lazySchema(() =>
  z.discriminatedUnion('source', [
    z.object({
      source: z.literal('reported'),
      micros: microsSchema(),
      unit: costUnitSchema(),
      /** Where the service said it: `usage.cost`, `header x-usage-cost`, … (a profile's words). */
      field: z.string().min(1).max(80),
    }),
    z.object({
      source: z.literal('estimated'),
      micros: microsSchema(),
      unit: costUnitSchema(),
      basis: priceBasisSchema(),
    }),
    z.object({ source: z.literal('not_billed') }),
    z.object({ source: z.literal('free') }),
    z.object({ source: z.literal('unknown') }),
  ]),
);
export type TaskCost = z.infer<ReturnType<typeof taskCostSchema>>;
/** A cost with an amount: reported or estimated. */
export type CountedCost = Extract<TaskCost, { micros: number }>;

export const UNKNOWN_COST: TaskCost = { source: 'unknown' };
export const NOT_BILLED: TaskCost = { source: 'not_billed' };
/** The cost of a task on a service that never bills (the built-in demo service). */
export const FREE_COST: TaskCost = { source: 'free' };

/** The amount and unit of `cost`, or undefined when it has none (not billed, unknown, absent). */
export function countedCost(cost: TaskCost | undefined): CountedCost | undefined {
  return cost !== undefined && 'micros' in cost ? cost : undefined;
}

/** A cost a service reported, checked: its amount, unit and where it said so. */
export interface ReportedCost {
  readonly micros: number;
  readonly unit: CostUnit;
  readonly field: string;
}

/** What a profile found in an answer, before it is checked. */
export interface RawCost {
  /** Where the answer said it (the profile's own words, never the service's). */
  readonly field: string;
  readonly amount: unknown;
  /** The unit as the service wrote it; a profile passes its documented unit when there is none. */
  readonly unit: unknown;
  /** The amount is already in micros (`usage_cost_usd_micros`). */
  readonly inMicros?: boolean;
}

/** Either the checked cost, or why it was refused (a short reason, never the value). */
export type CostReading =
  | { readonly ok: true; readonly cost: ReportedCost }
  | { readonly ok: false; readonly field: string; readonly problem: string };

/** A plain decimal as services write amounts in text: `0.04`, `12`, `3.5`. */
const DECIMAL = /^\s*\d{1,16}(\.\d{1,12})?\s*$/;

/** The amount as a number, or why it is not one Pictor keeps. */
function amountOf(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'not a finite number';
    if (value < 0) return 'negative';
    return value;
  }
  if (typeof value === 'string') {
    if (value.length > 40) return 'too long';
    if (/^\s*-/.test(value)) return 'negative';
    return DECIMAL.test(value) ? Number(value) : 'not a plain decimal number';
  }
  return 'not a number';
}

/** The longest unit text Pictor looks up (cost-amounts.ts's COST_BOUNDS.unit). */
export const MAX_UNIT_TEXT = 20;

/** A unit from a service's text (`usd`, `USD`, `credit`), or undefined for one Pictor does not know. */
export function readCostUnit(value: unknown): CostUnit | undefined {
  if (typeof value !== 'string' || value.length > MAX_UNIT_TEXT) return undefined;
  const text = value.trim();
  if (/^credits?$/i.test(text)) return 'credits';
  const upper = text.toUpperCase();
  return (CURRENCY_CODES as readonly string[]).includes(upper) ? (upper as CostUnit) : undefined;
}

/** Checks what a profile found: a usable amount in a known unit, or the reason it is refused. */
export function checkReportedCost(raw: RawCost): CostReading {
  const refuse = (problem: string): CostReading => ({ ok: false, field: raw.field, problem });
  const unit = readCostUnit(raw.unit);
  if (unit === undefined) return refuse('unknown unit');
  const amount = amountOf(raw.amount);
  if (typeof amount === 'string') return refuse(amount);
  const micros = raw.inMicros ? amount : amount * MICROS_PER_UNIT;
  if (micros > MAX_TASK_COST_MICROS) return refuse('too large');
  return { ok: true, cost: { micros: Math.round(micros), unit, field: raw.field } };
}

/** Micros as a plain decimal with no trailing zeros (`40000` → `0.04`), exact for any integer. */
export function formatMicros(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(micros))).padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-6).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** What one service answer said about the task's cost: a checked cost, or a refused value. */
export interface AnswerCost {
  readonly reportedCost?: ReportedCost;
  /** The answer stated a cost Pictor refused: where, and why (never the value). */
  readonly costRefused?: { readonly field: string; readonly problem: string };
}
