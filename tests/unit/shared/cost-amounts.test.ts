/**
 * Amounts of prices and caps as people type them (shared/domain/cost-amounts.ts): the forms of
 * the CLI, of English, German and Arabic windows, and each refusal's reason; the bounds are the
 * stored schemas' bounds, for every unit, and nothing is ever rounded (to 0 or otherwise).
 */
import { describe, expect, it } from 'vitest';
import {
  COST_BOUNDS,
  amountRange,
  readTypedAmount,
  type AmountContext,
  type AmountKind,
} from '../../../shared/domain/cost-amounts';
import { costPriceSchema, spendingCapSchema } from '../../../shared/domain/cost-ledger';
import {
  CREDIT_UNITS,
  CURRENCY_CODES,
  formatMicros,
  type CostUnit,
} from '../../../shared/domain/task-cost';

const CLI: AmountContext = { unit: 'USD', kind: 'price' };
const GERMAN: AmountContext = { ...CLI, unit: 'EUR', decimal: ',', locales: ['de'] };
const ARABIC: AmountContext = { ...CLI, decimal: '٫', locales: ['ar', 'ar-EG'] };

const micros = (text: string, context: AmountContext = CLI) => readTypedAmount(text, context);
const problem = (text: string, context: AmountContext = CLI) => {
  const reading = readTypedAmount(text, context);
  return reading.ok ? `read ${reading.micros}` : reading.problem.kind;
};

describe('an amount as people type it', () => {
  it.each([
    ['0.05', 50_000],
    ['.05', 50_000],
    ['5', 5_000_000],
    ['5.', 5_000_000],
    [' 0.04 ', 40_000],
    ['$0.05', 50_000],
    ['$ 0.05', 50_000],
    ['0.05$', 50_000],
    ['0.05 USD', 50_000],
    ['usd 0.05', 50_000],
    ['US$0.05', 50_000],
    ['0,05', 50_000],
    [',5', 500_000],
    ['1,5', 1_500_000],
    ['0,500', 500_000],
    ['0.0400000000', 40_000],
    ['０.０５', 50_000],
    ['0.000001', 1],
    ['1000000', 1_000_000_000_000],
    ['-0', 0],
  ])('%s in the CLI (USD) reads %i micros', (text, expected) => {
    expect(micros(text)).toEqual({ ok: true, micros: expected });
  });

  it.each([
    ['0,05', 50_000],
    ['0,05 €', 50_000],
    ['0,05\u00a0€', 50_000],
    ['€0,05', 50_000],
    ['1,500', 1_500_000],
    ['.05', 50_000],
    ['0.05', 50_000],
    ['5 EUR', 5_000_000],
  ])('%s in a German window (EUR) reads %i micros', (text, expected) => {
    expect(micros(text, GERMAN)).toEqual({ ok: true, micros: expected });
  });

  it.each([
    ['٠٫٠٥', 50_000],
    ['\u200f0.15 US$', 150_000],
    ['٠٫١٥ US$', 150_000],
    ['۰٫۰۵', 50_000],
    ['0.05', 50_000],
    ['٥', 5_000_000],
  ])('%s in an Arabic window (USD) reads %i micros', (text, expected) => {
    expect(micros(text, ARABIC)).toEqual({ ok: true, micros: expected });
  });

  it.each([
    ['3 credits', 3_000_000],
    ['1 credit', 1_000_000],
    ['2,5 Credits', 2_500_000],
    ['4 kredity', 4_000_000],
  ])('%s of credits reads %i micros', (text, expected) => {
    const context: AmountContext = { unit: 'credits', kind: 'cap', words: ['kredity'] };
    expect(micros(text, context)).toEqual({ ok: true, micros: expected });
  });
});

describe('an amount Pictor refuses, and why', () => {
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['abc', 'notNumber'],
    ['.', 'notNumber'],
    ['1e3', 'notNumber'],
    ['0x10', 'notNumber'],
    ['NaN', 'notNumber'],
    ['Infinity', 'notNumber'],
    ['1.000.000', 'notNumber'],
    ['1,000.50', 'notNumber'],
    ['1 000', 'notNumber'],
    ['$5$', 'notNumber'],
    ['5-', 'notNumber'],
    ['x'.repeat(41), 'notNumber'],
    ['-1', 'negative'],
    ['−1', 'negative'],
    ['-$1', 'negative'],
    ['$-1', 'negative'],
    ['-0.0000001', 'negative'],
    ['0.0000001', 'finerThanStep'],
    ['0.0000015', 'finerThanStep'],
    ['1.0000001', 'finerThanStep'],
    ['5000000', 'tooLarge'],
    ['1000000.000001', 'tooLarge'],
    ['99999999999999999999', 'tooLarge'],
    ['1,500', 'ambiguous'],
    ['€5', 'otherUnit'],
    ['5 EUR', 'otherUnit'],
    ['5 credits', 'otherUnit'],
    ['5 DOGE', 'notNumber'],
  ])('%j in the CLI (a USD price): %s', (text, reason) => {
    expect(problem(text)).toBe(reason);
  });

  it('names both readings of an ambiguous separator', () => {
    expect(readTypedAmount('1.500', GERMAN)).toEqual({
      ok: false,
      problem: { kind: 'ambiguous', whole: 1500, decimal: 1.5 },
    });
    expect(problem('$5', GERMAN)).toBe('otherUnit');
  });

  it('never rounds a typed amount to 0: the smallest step is the least above 0', () => {
    for (const unit of [...CURRENCY_CODES, ...CREDIT_UNITS]) {
      const step = COST_BOUNDS.stepMicros[unit];
      expect(step).toBeGreaterThan(0);
      const finer = (step / 10 / 1_000_000).toFixed(7);
      expect(readTypedAmount(finer, { unit, kind: 'cap' }).ok, `${finer} ${unit}`).toBe(false);
    }
  });
});

describe('the bounds are declared once', () => {
  const units: CostUnit[] = [...CURRENCY_CODES, ...CREDIT_UNITS];
  const kinds: AmountKind[] = ['price', 'cap'];
  const stored = (kind: AmountKind, unit: CostUnit, value: number) =>
    kind === 'price'
      ? costPriceSchema().safeParse({
          provider: 'fal',
          model: '',
          unit,
          basis: 'image',
          micros: value,
        }).success
      : spendingCapSchema().safeParse({
          period: 'day',
          unit,
          provider: null,
          kind: 'hard',
          micros: value,
        }).success;

  it.each(kinds.flatMap((kind) => units.map((unit) => [kind, unit] as const)))(
    'a %s in %s: what a user may type is exactly what may be stored',
    (kind, unit) => {
      const { min, max, step } = amountRange(kind, unit);
      const typed = (value: number) => readTypedAmount(formatMicros(value), { unit, kind }).ok;
      for (const value of [min, min + step, max])
        expect([typed(value), stored(kind, unit, value)], `${value}`).toEqual([true, true]);
      expect([typed(max + step), stored(kind, unit, max + step)]).toEqual([false, false]);
      expect(stored(kind, unit, min - step)).toBe(false);
    },
  );

  it('a price’s model is bounded alike', () => {
    const price = { provider: 'fal', unit: 'USD', basis: 'image', micros: 1 } as const;
    expect(
      costPriceSchema().safeParse({ ...price, model: 'm'.repeat(COST_BOUNDS.model) }).success,
    ).toBe(true);
    expect(
      costPriceSchema().safeParse({ ...price, model: 'm'.repeat(COST_BOUNDS.model + 1) }).success,
    ).toBe(false);
  });
});
