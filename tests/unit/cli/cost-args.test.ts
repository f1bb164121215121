/**
 * `pictor prices set` and `pictor caps set`: amounts as people type them, and every bad value a
 * UsageError (exit 2) whose sentence names the value and the range allowed, decided before the
 * library is opened: never a schema's words, never exit 70, never a value rounded to 0. The
 * bounds are the schemas' own (shared/domain/cost-amounts.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../support/cli-table';
import { UsageError } from '../../../electron/core/command-line/command-line';

const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/home/u/.config' };
const PRICE = ['prices', 'set', '--provider', 'pictor', '--unit', 'USD'];
const CAP = ['caps', 'set', '--period', 'day', '--unit', 'USD'];

function refusal(argv: readonly string[]): string {
  try {
    parseCommand([...argv], env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

function micros(argv: readonly string[]): number {
  return (parseCommand([...argv], env) as { micros: number }).micros;
}

describe('an amount on the command line', () => {
  it.each([
    ['0.05', 50_000],
    ['.05', 50_000],
    ['$0.05', 50_000],
    ['0.05USD', 50_000],
    ['0,05', 50_000],
    ['1,5', 1_500_000],
    ['0.000001', 1],
    ['1000000', 1_000_000_000_000],
  ])('prices set --amount %s reads %i micros', (amount, expected) => {
    expect(micros([...PRICE, '--amount', amount])).toBe(expected);
  });

  it.each([
    [['--amount', '-1'], '--amount "-1" is negative; a cap is from $0.00 to $1,000,000,000.00.'],
    [['--amount=-0.5'], '--amount "-0.5" is negative; a cap is from $0.00 to $1,000,000,000.00.'],
    [
      ['--amount', '0.0000001'],
      '--amount "0.0000001" is finer than $0.000001, the smallest step Pictor keeps: type 0, or an amount from $0.000001 to $1,000,000,000.00.',
    ],
    [
      ['--amount', '5000000000'],
      '--amount "5000000000" is more than $1,000,000,000.00, the most a cap may be.',
    ],
    [['--amount', '1,500'], '--amount "1,500" could be read as 1500 or as 1.5: type 1500 or 1.5.'],
    [
      ['--amount', '€5'],
      '--amount "€5" is not in USD: type the amount in USD, or give its unit with --unit.',
    ],
    [
      ['--amount', 'five'],
      '--amount "five" is not an amount: type a number from 0 to 1000000000 (USD), such as 0.04 or 5.',
    ],
    [[], '--amount needs a value: a number from 0 to 1000000000 (USD), such as 0.04.'],
  ])('caps set %j: exit 2 with %j', (args, said) => {
    expect(refusal([...CAP, ...args])).toBe(said);
  });

  it('refuses a price over the most a price may be, with the bound, not the schema’s words', () => {
    expect(refusal([...PRICE, '--amount', '5000000'])).toBe(
      '--amount "5000000" is more than $1,000,000.00, the most a price may be.',
    );
  });

  it('refuses a model longer than a price’s model may be', () => {
    expect(refusal([...PRICE, '--amount', '1', '--model', 'm'.repeat(5_000)])).toBe(
      "--model is 5000 characters long; a price's model name takes at most 200.",
    );
    expect(
      (
        parseCommand([...PRICE, '--amount', '1', '--model', 'm'.repeat(200)], env) as {
          model: string;
        }
      ).model,
    ).toHaveLength(200);
  });

  it('names a bad unit, period or basis', () => {
    expect(refusal(['caps', 'set', '--period', 'day', '--unit', 'DOGE', '--amount', '1'])).toMatch(
      /^--unit "DOGE" is not a unit Pictor knows: it takes one of USD, EUR/,
    );
    expect(refusal(['caps', 'set', '--period', 'week', '--unit', 'USD', '--amount', '1'])).toBe(
      '--period "week" is not day or month.',
    );
    expect(refusal([...PRICE, '--amount', '1', '--per', 'pixel'])).toBe(
      '--per "pixel" is not image or megapixel.',
    );
  });

  it('never echoes a long or wordy value (a key pasted in the wrong place)', () => {
    const key = 'sk-live-0123456789abcdefghijklmnop';
    const said = refusal([...CAP, '--amount', key]);
    expect(said).not.toContain(key);
    expect(said).toContain('the value given');
  });

  it('takes a negative number as any option’s value, so its own check can name it', () => {
    expect(
      refusal(['generate', '--base-url', 'https://x', '--prompt', 'p', '--count', '-1']),
    ).not.toMatch(/takes no value/);
  });
});
