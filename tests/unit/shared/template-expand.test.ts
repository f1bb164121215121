/**
 * A template expanded (shared/domain/template-expand.ts): the exact count without listing,
 * combinatorial order and its limit, seeded random draws (same seed, same prompts; distinct; all
 * of them when asked for more), the errors of expansion, and random small templates whose count
 * equals the length of their combinatorial list.
 */
import { describe, expect, it } from 'vitest';
import {
  countPrompts,
  expandTemplate,
  newTemplateSeed,
  type ExpansionMode,
  type TemplateContext,
} from '../../../shared/domain/template-expand';
import { parseTemplate, type ParsedTemplate } from '../../../shared/domain/template-language';
import { englishText } from '../../../shared/i18n/sentence';

function parsed(body: string): ParsedTemplate {
  const result = parseTemplate(body);
  if (!result.ok) throw new Error(result.error.code);
  return result.template;
}

const words = (count: number, stem = 'w') => Array.from({ length: count }, (_, i) => `${stem}${i}`);
const LISTS = new Map([
  ['colour', ['red', 'green', 'blue']],
  ['empty', []],
  ['big', words(1000)],
]);
const CONTEXT: TemplateContext = { values: {}, prompt: '', lists: LISTS };
const ALL: ExpansionMode = { kind: 'combinatorial' };
const random = (count: number, seed: number): ExpansionMode => ({ kind: 'random', count, seed });

function expand(body: string, mode: ExpansionMode = ALL, context = CONTEXT, limit?: number) {
  return expandTemplate(parsed(body), context, mode, limit);
}

function prompts(body: string, mode: ExpansionMode = ALL, context = CONTEXT): string[] {
  const result = expand(body, mode, context);
  if (!result.ok) throw new Error(`${result.error.code}: ${englishText(result.error.sentence)}`);
  return result.prompts;
}

function count(body: string, lists = LISTS): bigint {
  const result = countPrompts(parsed(body), lists);
  if (!result.ok) throw new Error(result.error.code);
  return result.count;
}

describe('counting', () => {
  it.each([
    ['plain', 1n],
    ['{a|b}{c|d|e}', 6n],
    ['{a|{b|c}|__colour__}', 6n],
    ['{a|b} __colour__ {{x=1}}', 6n],
    ['{|x}{|y}{|z}{|w}', 16n],
  ])('%s gives %s', (body, expected) => {
    expect(count(body)).toBe(expected);
  });

  it('counts ten lists of 1,000 words at once, exactly', () => {
    const started = performance.now();
    expect(count('__big__ '.repeat(10))).toBe(10n ** 30n);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('counts 1,000 choices by 1,000 choices without listing them', () => {
    const body = `{${words(1000, 'a').join('|')}} {${words(1000, 'b').join('|')}}`;
    expect(count(body)).toBe(1_000_000n);
    const drawn = prompts(body, random(100, 7));
    expect(new Set(drawn).size).toBe(100);
    for (const prompt of drawn) expect(prompt).toMatch(/^a\d{1,3} b\d{1,3}$/);
  });

  it('refuses an unknown or empty list, naming it and its place', () => {
    const unknown = countPrompts(parsed('x\n {a|__nope__}'), LISTS);
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'unknownList', line: 2, column: 5 },
    });
    if (unknown.ok) return;
    expect(englishText(unknown.error.sentence)).toBe(
      'There is no word list “nope” (line 2, column 5). Create the list, or correct its name.',
    );
    expect(expand('__empty__')).toMatchObject({ ok: false, error: { code: 'emptyList' } });
  });
});

describe('combinatorial mode', () => {
  it('varies the leftmost choice slowest', () => {
    expect(prompts('{a|b} {{n=x}} __colour__ {1|{2|3}}')).toEqual([
      'a x red 1',
      'a x red 2',
      'a x red 3',
      'a x green 1',
      'a x green 2',
      'a x green 3',
      'a x blue 1',
      'a x blue 2',
      'a x blue 3',
      'b x red 1',
      'b x red 2',
      'b x red 3',
      'b x green 1',
      'b x green 2',
      'b x green 3',
      'b x blue 1',
      'b x blue 2',
      'b x blue 3',
    ]);
  });

  it('refuses more than the limit with the exact count', () => {
    const body = `{${words(16).join('|')}} {${words(15).join('|')}}`;
    const refused = expand(body);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'tooManyPrompts', count: '240', limit: 100, line: 1, column: 1 },
    });
    if (refused.ok) return;
    expect(englishText(refused.error.sentence)).toBe(
      'The template expands to 240 prompts; the limit is 100. Draw a random sample of them instead, or remove some choices.',
    );
    expect(expand('__big__ '.repeat(10))).toMatchObject({
      error: { code: 'tooManyPrompts', count: `1${'0'.repeat(30)}` },
    });
    expect(expand(body, ALL, CONTEXT, 240)).toMatchObject({ ok: true });
    expect(expand(`{${words(10).join('|')}} {${words(10).join('|')}}`)).toMatchObject({ ok: true });
  });
});

describe('random mode', () => {
  const BODY = '{a|b|c|d|e} {1|2|3|4|5|6} __big__';

  it('gives the same prompts for the same seed, other ones for another seed', () => {
    const first = prompts(BODY, random(20, 42));
    expect(prompts(BODY, random(20, 42))).toEqual(first);
    expect(prompts(BODY, random(20, 43))).not.toEqual(first);
    expect(new Set(first).size).toBe(20);
  });

  it('is the same on every machine: a golden draw', () => {
    expect(prompts('{a|b|c|d|e|f|g|h}{1|2|3|4|5|6|7|8}', random(5, 1))).toEqual(
      prompts('{a|b|c|d|e|f|g|h}{1|2|3|4|5|6|7|8}', random(5, 1)),
    );
    expect(prompts('__big__', random(3, 2024))).toMatchInlineSnapshot(`
      [
        "w176",
        "w450",
        "w333",
      ]
    `);
  });

  it('draws distinct prompts even when asking for all but one', () => {
    const all = prompts('{a|b|c}{1|2|3|4}');
    for (const seed of [0, 1, 2, 0xffffffff]) {
      const drawn = prompts('{a|b|c}{1|2|3|4}', random(11, seed));
      expect(new Set(drawn).size).toBe(11);
      expect(drawn.every((prompt) => all.includes(prompt))).toBe(true);
    }
  });

  it('gives all the prompts, in order, when asked for more than there are', () => {
    expect(prompts('{a|b|c}', random(10, 5))).toEqual(['a', 'b', 'c']);
  });

  it('draws from 10^30 prompts', () => {
    const drawn = prompts('__big__ '.repeat(10), random(100, 9));
    expect(new Set(drawn).size).toBe(100);
  });

  it.each([0, -1, 1.5, 101, Number.NaN])('refuses a count of %s', (wanted) => {
    const refused = expand('{a|b}', random(wanted, 1));
    expect(refused).toMatchObject({ ok: false, error: { code: 'badCount', limit: 100 } });
  });

  it('seeds with a 32-bit unsigned integer, fresh each time', () => {
    const seeds = Array.from({ length: 20 }, newTemplateSeed);
    for (const seed of seeds) expect(seed >>> 0).toBe(seed);
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });
});

describe('values and results', () => {
  it('refuses a variable with no value and no default, at its first place', () => {
    const refused = expand('a\nb {{x=}} {{subject}} {{subject}}');
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'missingValue', name: 'subject', line: 2, column: 10 },
    });
    const context = { ...CONTEXT, values: { subject: '' } };
    expect(prompts('a {{subject}} b', ALL, context)).toEqual(['a b']);
  });

  it('refuses an empty prompt, naming which', () => {
    expect(expand('{x|}')).toMatchObject({ ok: false, error: { code: 'emptyResult', number: 2 } });
    expect(expand(' {{v}} ', ALL, { ...CONTEXT, values: { v: ' \n ' } })).toMatchObject({
      error: { code: 'emptyResult', number: 1 },
    });
  });

  it('refuses a prompt over 32,000 characters, counting an emoji as one', () => {
    const fits = { ...CONTEXT, values: { v: '🎨'.repeat(16_000) } };
    expect(prompts('{{v}}{{v}}', ALL, fits)[0]).toHaveLength(64_000);
    expect(expand('{{v}}{{v}}x', ALL, fits)).toMatchObject({
      error: { code: 'resultTooLong', number: 1, limit: 32_000 },
    });
    const huge = { ...CONTEXT, values: { v: 'x'.repeat(30_000) } };
    expect(expand('{{v}}'.repeat(6_000), ALL, huge)).toMatchObject({
      error: { code: 'resultTooLong' },
    });
  });
});

describe('random small templates', () => {
  function small(next: () => number, depth: number): string {
    const parts = 1 + (next() % 3);
    let body = '';
    for (let part = 0; part < parts; part += 1) {
      const pick = next() % 4;
      if (pick === 0 && depth < 3) {
        const alternatives = 1 + (next() % 3);
        body += `{${Array.from({ length: alternatives }, () => `a${small(next, depth + 1)}`).join('|')}}`;
      } else if (pick === 1) body += '__colour__';
      else body += `t${next() % 1000}`;
    }
    return body;
  }

  it('count as many prompts as the combinatorial list has', () => {
    let state = 12345;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8;
    for (let round = 0; round < 300; round += 1) {
      const template = parsed(`s${small(next, 0)}`);
      const counted = countPrompts(template, LISTS);
      const listed = expandTemplate(template, CONTEXT, ALL, 10_000);
      if (!counted.ok) throw new Error(counted.error.code);
      if (counted.count > 10_000n) {
        expect(listed).toMatchObject({ error: { code: 'tooManyPrompts' } });
        continue;
      }
      if (!listed.ok) throw new Error(listed.error.code);
      expect(BigInt(listed.prompts.length)).toBe(counted.count);
    }
  });

  it('list distinct alternatives without duplicates', () => {
    const body = '{a|b{c|d}|e{f|g{h|i}}} {x|__colour__}';
    const listed = prompts(body);
    expect(listed).toHaveLength(24);
    expect(new Set(listed).size).toBe(24);
  });
});
