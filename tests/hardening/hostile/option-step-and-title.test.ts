/**
 * Two edges of session 45's one rule of a model's option (shared/domain/param-spec-rule.ts,
 * model-params.ts), attacked with values and schemas written here:
 *
 * - A number off its step was on it once its multiple of the step passed 5e8: the slack for a
 *   decimal step's rounding was a 1e-9 share of the multiple, half a step there. `12345678.905`
 *   on a step of 0.01, `3000000000.5` on a step of 1 went to the service, which refuses them.
 *   Its 2⁻⁴⁰ share (session 46) was half a step at 2³⁹ multiples: `600.0000000005` on a step of
 *   1e-9, `1099511627776.5` on a step of 1 (session 47: the distance is now the exact remainder,
 *   its slack a few units in the value's last place).
 * - A description cut to 200 characters was not trimmed after the cut, and `soundSpec` keeps a
 *   title only when reading it again gives itself: a published option whose description had a
 *   space (or a line break, made one) at the 200th character was dropped whole, and one with an
 *   emoji there kept half of its surrogate pair.
 */
import { describe, expect, it } from 'vitest';
import { readFetchedSchema } from '../../../shared/domain/fetched-param-schema';
import { paramFromText, paramProblem, type ParamSpec } from '../../../shared/domain/model-params';
import { shownTitle } from '../../../shared/domain/param-spec-rule';
import { paramSpecsSchema } from '../../../shared/domain/param-specs-schema';

/** A number option over every whole number JavaScript holds, with `step`. */
const stepped = (step: number): ParamSpec => ({
  type: 'number',
  min: -Number.MAX_SAFE_INTEGER,
  max: Number.MAX_SAFE_INTEGER,
  step,
});

/** Per step: values on it, as a command line or the form writes them, and values off it. */
const STEPS: readonly (readonly [number, readonly string[], readonly string[]])[] = [
  [
    0.01,
    ['0.07', '0.3', '12345678.91', '-12345678.91', '99999999.99', '1e7', '-0'],
    ['12345678.905', '-12345678.905', '99999999.995', '123456789.125', '0.005', '5500000000.005'],
  ],
  [
    1,
    ['3000000000', '4294967295', '9007199254740991', '6E8'],
    ['3000000000.5', '600000000.5', '1099511627776.5', '-1099511627776.5', '281474976710656.5'],
  ],
  [0.1, ['0.3', '0.7', '99999999.9', '1e-1'], ['99999999.95', '5.55', '0.05', '216295081769.35']],
  [0.25, ['1e9', '1000000000.25', '-1000000000.75'], ['1000000000.1', '1000000000.125']],
  [1e-7, ['0.0000003', '3e-7', '1.2345678', '100.0000001'], ['100.00000005', '1.23456785']],
  // Tiny steps: a multiple past 2³⁹ was reached by a value of 600.
  [1e-9, ['600.000000001', '0.123456789', '-600.000000001'], ['600.0000000005', '-600.0000000005']],
  [1e-6, ['600000.000001'], ['600000.0000005']],
];

/** `digits` × 10^-`scale` (a decimal step) as exact decimal text; `half` adds half of it. */
function decimalText(multiple: bigint, digits: bigint, scale: number, half: boolean): string {
  let tenths = multiple * digits * 10n + (half ? digits * 5n : 0n);
  const sign = tenths < 0n ? '-' : '';
  if (tenths < 0n) tenths = -tenths;
  const text = tenths.toString().padStart(scale + 2, '0');
  return `${sign}${text.slice(0, -(scale + 1))}.${text.slice(-(scale + 1))}`;
}

describe('a number off its step', () => {
  it('is refused however large its multiple of the step, one on it taken', () => {
    const wrong: string[] = [];
    for (const [step, on, off] of STEPS) {
      const spec = stepped(step);
      const verdict = (text: string) => {
        const value = paramFromText(spec, text);
        return value === undefined ? 'unread' : (paramProblem('q', spec, value)?.key ?? 'taken');
      };
      for (const text of on) if (verdict(text) !== 'taken') wrong.push(`${text} on ${step}`);
      for (const text of off) {
        if (verdict(text) !== 'error.params.offStep') wrong.push(`${text} off ${step}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('is told from one on it for every decimal step, up to 2⁴⁷ multiples of it', () => {
    const steps: readonly (readonly [bigint, number])[] = [
      [1n, 0],
      [7n, 0],
      [1n, 1],
      [25n, 1],
      [1n, 2],
      [5n, 2],
      [125n, 3],
      [1n, 6],
      [1n, 9],
    ];
    const wrong: string[] = [];
    for (const [digits, scale] of steps) {
      const spec = stepped(Number(`${digits}e-${scale}`));
      for (let power = 0n; power <= 14n; power += 1n) {
        for (const nudge of [0n, 1n, 3n, 987_654n]) {
          const multiple = 10n ** power + nudge;
          if (Number(multiple) * Number(`${digits}e-${scale}`) > Number.MAX_SAFE_INTEGER) continue;
          if (Number(multiple) >= 2 ** 47) continue;
          for (const sign of [1n, -1n]) {
            const on = decimalText(sign * multiple, digits, scale, false);
            const off = decimalText(sign * multiple, digits, scale, true);
            if (paramProblem('q', spec, Number(on)) !== null) wrong.push(`${on} on`);
            if (paramProblem('q', spec, Number(off))?.key !== 'error.params.offStep') {
              wrong.push(`${off} off ${digits}e-${scale}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** Descriptions longer than a title keeps, each with something awkward at the cut. */
const LONG = 'a'.repeat(199);
const TITLES: Record<string, string> = {
  'a space at the cut': `${LONG} and more words`,
  'a line break at the cut': `${LONG}\nSecond line`,
  'an ideographic space at the cut': `${LONG}\u3000more`,
  'a no-break space at the cut': `${LONG}\u00a0more`,
  'spaces before the cut': `${'a'.repeat(190)}${' '.repeat(20)}tail`,
  'an emoji across the cut': `${LONG}😀 tail`,
  'a flag across the cut': `${'a'.repeat(198)}🇵🇹🇵🇹 tail`,
  'leading spaces and a long word': `   ${'x'.repeat(400)}`,
};

/** Whether `text` holds no half of a surrogate pair (UTF-8 would make it U+FFFD). */
const whole = (text: string): boolean => Buffer.from(text, 'utf8').toString('utf8') === text;

describe('a long description', () => {
  it.each(Object.entries(TITLES))('with %s is kept as a title that reads as itself', (_, raw) => {
    const title = shownTitle(raw);
    expect(title).toBeDefined();
    expect(shownTitle(title ?? '')).toBe(title);
    expect(whole(title ?? '')).toBe(true);
    expect((title ?? '').length).toBeLessThanOrEqual(200);
    expect(raw.trimStart().startsWith((title ?? '').slice(0, 150))).toBe(true);
  });

  it.each(Object.entries(TITLES))('with %s keeps its published option', (_, raw) => {
    const steps = { type: 'integer', minimum: 1, maximum: 50, description: raw };
    const published = { properties: { steps } };
    const schema = readFetchedSchema(JSON.stringify(published), 'file');
    const spec = schema?.params['steps'];
    expect(spec).toMatchObject({ type: 'integer', min: 1, max: 50, title: shownTitle(raw) });
    // And the kept file (model-options.json) and the window's answer read it back.
    expect(paramSpecsSchema().safeParse({ steps: spec }).success).toBe(true);
  });
});
