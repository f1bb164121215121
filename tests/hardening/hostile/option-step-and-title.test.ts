/**
 * Two edges of session 45's one rule of a model's option (shared/domain/param-spec-rule.ts,
 * model-params.ts), attacked with values and schemas written here:
 *
 * - A number off its step was on it once its multiple of the step passed 5e8: the slack for a
 *   decimal step's rounding was a 1e-9 share of the multiple, half a step there. `12345678.905`
 *   on a step of 0.01, `3000000000.5` on a step of 1 went to the service, which refuses them.
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
    ['12345678.905', '-12345678.905', '99999999.995', '123456789.125', '0.005'],
  ],
  [1, ['3000000000', '4294967295', '9007199254740991', '6E8'], ['3000000000.5', '600000000.5']],
  [0.1, ['0.3', '0.7', '99999999.9', '1e-1'], ['99999999.95', '5.55', '0.05']],
  [0.25, ['1e9', '1000000000.25', '-1000000000.75'], ['1000000000.1', '1000000000.125']],
  [1e-7, ['0.0000003', '3e-7', '1.2345678', '100.0000001'], ['100.00000005', '1.23456785']],
];

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
