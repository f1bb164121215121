/**
 * The prompt template's record (shared/domain/prompt-template.ts): names trimmed, NFC-normalised
 * and one whatever their case, refused with a sentence for each class of bad name (empty, too
 * long in characters, every control, separator and bidi character); bodies bounded in code
 * points; presets bounded per known service; the schema takes a stored record and nothing else.
 */
import { describe, expect, it } from 'vitest';
import {
  checkTemplateName,
  MAX_TEMPLATE_NAME_CHARS,
  MAX_TEMPLATE_TEXT_CHARS,
  promptTemplateSchema,
} from '../../../shared/domain/prompt-template';
import { foldName } from '../../../shared/domain/triage';
import { englishText } from '../../../shared/i18n/sentence';

const problem = (raw: string) => {
  const checked = checkTemplateName(raw);
  return checked.ok ? null : englishText(checked.problem);
};

const record = {
  id: '0b7f2c1e-4a3d-4c5b-9e8f-1a2b3c4d5e6f',
  name: 'Watercolour',
  body: 'a watercolour of {{prompt}}',
  version: 1,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

describe('template names', () => {
  it('are trimmed and NFC-normalised, and one whatever their case', () => {
    expect(checkTemplateName('  Cafe\u0301 Noir ')).toMatchObject({ ok: true, name: 'Café Noir' });
    const a = checkTemplateName('Straße');
    const b = checkTemplateName('STRASSE');
    expect(a.ok && b.ok && a.key === b.key).toBe(true);
    expect(a.ok && a.key).toBe(foldName('straße'));
  });

  it('count characters, not UTF-16 units', () => {
    expect(checkTemplateName('🌊'.repeat(MAX_TEMPLATE_NAME_CHARS)).ok).toBe(true);
    expect(problem('🌊'.repeat(MAX_TEMPLATE_NAME_CHARS + 1))).toBe(
      'A template’s name can have at most 100 characters.',
    );
  });

  it('are refused when empty after trimming', () => {
    for (const raw of ['', '   ', '\u3000', ' \u00a0 ']) {
      expect(problem(raw)).toBe('A template needs a name.');
    }
  });

  const forbidden = [
    ...Array.from({ length: 0x20 }, (_, code) => code),
    0x7f,
    0x85,
    0x9b,
    0x9f,
    0x2028,
    0x2029,
    0x061c,
    0x200e,
    0x200f,
    0x202a,
    0x202e,
    0x2066,
    0x2069,
    0xfeff,
  ];
  it.each(forbidden)('refuse U+%s inside a name, with its code in the sentence', (code) => {
    const character = String.fromCodePoint(code);
    const shown = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    expect(problem(`left${character}right`)).toBe(
      `A template’s name cannot contain the character ${shown}.`,
    );
  });

  it('keep zero-width joiners (emoji need them)', () => {
    expect(checkTemplateName('👩‍👩‍👧 family')).toMatchObject({ ok: true });
  });
});

describe('the record', () => {
  it('takes a stored record, with a negative and presets per known service', () => {
    const full = {
      ...record,
      negative: 'blurry',
      presets: { pictor: { model: 'm1', size: '1024x1024', quality: 'high', count: 4 } },
    };
    expect(promptTemplateSchema().parse(full)).toEqual(full);
  });

  it('bounds the body and the negative in code points', () => {
    const longest = '🌊'.repeat(MAX_TEMPLATE_TEXT_CHARS);
    expect(promptTemplateSchema().safeParse({ ...record, body: longest }).success).toBe(true);
    for (const field of ['body', 'negative']) {
      const over = { ...record, [field]: `${'a'.repeat(MAX_TEMPLATE_TEXT_CHARS)}b` };
      expect(promptTemplateSchema().safeParse(over).success).toBe(false);
    }
  });

  it.each([
    ['a name not as stored (untrimmed)', { name: ' Watercolour' }],
    ['a name with a bidi override', { name: 'a\u202eb' }],
    ['an id that is no uuid', { id: 'abc' }],
    ['version 0', { version: 0 }],
    ['a fractional version', { version: 1.5 }],
    ['a date before 1970', { createdAt: -1 }],
    ['a preset for an unknown service', { presets: { nowhere: {} } }],
    ['a __proto__ preset', { presets: JSON.parse('{"__proto__": {"count": 1}}') as unknown }],
    ['a count of 0', { presets: { pictor: { count: 0 } } }],
    ['a count of 11', { presets: { pictor: { count: 11 } } }],
    ['an empty model', { presets: { pictor: { model: '' } } }],
    ['a model of 201 characters', { presets: { pictor: { model: 'm'.repeat(201) } } }],
  ])('refuses %s', (_, change) => {
    expect(promptTemplateSchema().safeParse({ ...record, ...change }).success).toBe(false);
  });
});
