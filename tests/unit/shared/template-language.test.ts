/**
 * The prompt-template language read (shared/domain/template-language.ts): golden bodies, every
 * parse error with its line and column on a multi-line body, escapes, the variables and lists a
 * template names, and bodies crafted to exhaust the stack or the memory.
 */
import { describe, expect, it } from 'vitest';
import { englishText } from '../../../shared/i18n/sentence';
import { expandTemplate } from '../../../shared/domain/template-expand';
import {
  escapeTemplateText,
  parseTemplate,
  templateLists,
  templateVariables,
  type ParsedTemplate,
} from '../../../shared/domain/template-language';

function parsed(body: string): ParsedTemplate {
  const result = parseTemplate(body);
  if (!result.ok) throw new Error(`${result.error.code}: ${englishText(result.error.sentence)}`);
  return result.template;
}

function all(body: string, values: Record<string, string> = {}, prompt = ''): string[] {
  const lists = new Map([['colour', ['red', 'blue']]]);
  const result = expandTemplate(parsed(body), { values, prompt, lists }, { kind: 'combinatorial' });
  if (!result.ok) throw new Error(result.error.code);
  return result.prompts;
}

function failure(body: string) {
  const result = parseTemplate(body);
  if (result.ok) throw new Error(`parsed: ${body.slice(0, 40)}`);
  return result.error;
}

describe('a template read and expanded', () => {
  it.each([
    ['a {cat|dog}', ['a cat', 'a dog']],
    ['{a|{b|c} d}', ['a', 'b d', 'c d']],
    ['{|very }red', ['red', 'very red']],
    ['{x|y}{1|2}', ['x1', 'x2', 'y1', 'y2']],
    ['a | b', ['a | b']],
    ['{ {a|b} c|d}', ['a c', 'b c', 'd']],
    ['__colour__ {{subject}}', ['red cat', 'blue cat']],
    ['{__colour__|green} sky', ['red sky', 'blue sky', 'green sky']],
    ['single_underscore', ['single_underscore']],
    ['x{a||b}', ['xa', 'x', 'xb']],
  ])('%s', (body, expected) => {
    expect(all(body, { subject: 'cat' }, '')).toEqual(expected);
  });

  it('reads each escape as its character and any other backslash as itself', () => {
    expect(all(String.raw`\{a\|b\} \_\_colour\_\_ \\ \n \x`)).toEqual([
      String.raw`{a|b} __colour__ \ \n \x`,
    ]);
    expect(all(String.raw`{a\|b|c\}}`)).toEqual(['a|b', 'c}']);
    expect(all('trailing \\')).toEqual(['trailing \\']);
  });

  it('trims names and defaults, and an empty default is a default', () => {
    expect(all('{{ subject = a cat }} on {{where=}}mat')).toEqual(['a cat on mat']);
    expect(all('{{subject=a cat}}', { subject: 'a dog' })).toEqual(['a dog']);
    expect(all(String.raw`{{s=a \} b}}`)).toEqual(['a } b']);
  });

  it('fills {{prompt}} from the prompt box, never asking for it', () => {
    const template = parsed('{{prompt}}, {{style=oil}} {{prompt}}');
    expect(templateVariables(template)).toEqual([{ name: 'style', defaultValue: 'oil' }]);
    expect(all('{{prompt}}, in {{style=oil}}', {}, 'a fox')).toEqual(['a fox, in oil']);
    expect(all('{{prompt=a hare}}!', {}, '  ')).toEqual(['a hare!']);
    expect(all('{{Prompt=x}}', {}, 'typed')).toEqual(['x']);
  });

  it('lists variables in order of first appearance with the first default, and lists once', () => {
    const template = parsed(
      '{{b}} {{a}} {x|{{b=late}}} {{a=first}} {{a=second}} __l__ __k__ __l__',
    );
    expect(templateVariables(template)).toEqual([
      { name: 'b', defaultValue: 'late' },
      { name: 'a', defaultValue: 'first' },
    ]);
    expect(templateLists(template)).toEqual(['l', 'k']);
  });

  it('keeps right-to-left words and emoji byte-exact', () => {
    const words = ['قطة', 'חתול', '🐈‍⬛', 'e\u0301'];
    const prompts = all(`{${words.join('|')}} 🎨`);
    expect(prompts).toEqual(words.map((word) => `${word} 🎨`));
  });

  it('collapses runs of spaces and trims the ends, keeping line breaks inside', () => {
    expect(all('  a {|  } b  \n\n c \n')).toEqual(['a b \n\n c', 'a b \n\n c']);
    expect(all('\t{{v}}\t', { v: '  x   y  ' })).toEqual(['x y']);
  });
});

describe('escapeTemplateText', () => {
  it('gives back any text as itself', () => {
    const texts = ['{a|b}', '__colour__', '\\{', 'a\\', '{{x}}', '}|{_\\_', 'قطة {x} 🐈'];
    for (const text of texts) expect(all(escapeTemplateText(text))).toEqual([text]);
  });
});

describe('a template refused', () => {
  const BODY = 'first line\nsecond {a|b\nthird';

  it.each([
    ['first\n  x {a|b', 'unclosedChoice', 2, 5],
    ['first\n\n  x }', 'unmatchedClose', 3, 5],
    ['{a|b}}', 'unmatchedClose', 1, 6],
    ['one\ntwo {{name', 'unclosedVariable', 2, 5],
    ['one\n🎨 {{name}', 'unclosedVariable', 2, 3],
    ['one\ntwo {{bad name}}', 'badVariableName', 2, 5],
    ['{{9lives}}', 'badVariableName', 1, 1],
    ['{{}}', 'badVariableName', 1, 1],
    [`{{${'a'.repeat(65)}}}`, 'badVariableName', 1, 1],
    ['x\n  __art style__', 'badListName', 2, 3],
    ['__unclosed', 'badListName', 1, 1],
    ['a__b', 'badListName', 1, 2],
    ['____', 'badListName', 1, 1],
    ['__a__b__', 'badListName', 1, 7],
    ['__double__under__', 'badListName', 1, 16],
    [`__${'a'.repeat(65)}__`, 'badListName', 1, 1],
  ])('%j: %s at line %i, column %i', (body, code, line, column) => {
    const error = failure(body);
    expect([error.code, error.line, error.column]).toEqual([code, line, column]);
    expect(englishText(error.sentence)).toContain(`line ${line}, column ${column}`);
  });

  it('points at the unmatched opening brace of a choice on a multi-line body', () => {
    const error = failure(BODY);
    expect(error).toMatchObject({ code: 'unclosedChoice', offset: 18, line: 2, column: 8 });
  });

  it('names a bad variable name in its sentence', () => {
    expect(englishText(failure('{{a b}}').sentence)).toContain('“a b”');
  });

  it('refuses a body over 32,000 characters, counting an emoji as one', () => {
    expect(parseTemplate('🎨'.repeat(32_000)).ok).toBe(true);
    const error = failure(`${'🎨'.repeat(32_000)}a`);
    expect(error.code).toBe('bodyTooLong');
    expect(englishText(error.sentence)).toBe(
      'The template is longer than 32,000 characters. Shorten it.',
    );
  });

  it('reads a list word with braces as text', () => {
    const lists = new Map([['odd', ['{a|b}', '__x__', '{{v}}']]]);
    const result = expandTemplate(
      parsed('__odd__'),
      { values: {}, prompt: '', lists },
      { kind: 'combinatorial' },
    );
    expect(result).toEqual({ ok: true, prompts: ['{a|b}', '__x__', '{{v}}'] });
  });
});

describe('a crafted body', () => {
  it('of 32,000 opening braces is an unclosed variable at its start', () => {
    expect(failure('{'.repeat(32_000))).toMatchObject({ code: 'unclosedVariable', offset: 0 });
  });

  it('of 32,000 nested choices is refused at the 33rd level', () => {
    const error = failure('{a|'.repeat(10_666));
    expect(error).toMatchObject({ code: 'tooDeep', offset: 96, line: 1, column: 97, limit: 32 });
    expect(parseTemplate(`${'{a|'.repeat(32)}b${'}'.repeat(32)}`).ok).toBe(true);
  });

  it('of more than 20,000 parts is refused', () => {
    expect(failure('{|}'.repeat(10_000))).toMatchObject({ code: 'tooComplex', limit: 20_000 });
    expect(parseTemplate('{{a}}'.repeat(6_000)).ok).toBe(true);
  });
});
