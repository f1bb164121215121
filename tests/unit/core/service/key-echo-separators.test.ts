/**
 * The key's bytes written as digits (base64, base64url, hex) or escapes (`%XX`, `&#…;`, `\uXXXX`)
 * with visible separators between them, as text is made readable: MIME wraps base64 at 76
 * columns with CRLF, PEM at 64 with LF, hex dumps put a space, `:` or `-` between bytes (or
 * between any digits). Every separator between any two digits, at every group size, with the
 * key anywhere in the blob (so a break falls inside its digits, at each offset): found, scrubbed
 * from its first digit to its last, the text around it kept. The encoders and the leak scanner
 * are the tests' own (key-encodings.ts). Then ordinary spaced hex and wrapped base64 that do not
 * hold the key are left alone.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, carriesKey, scrubKey } from '../../../../electron/core/secrets/key-echo';
import { keyArb, keyScanner } from '../../../hardening/key-and-bodies/key-encodings';

const KEYS = ['sk-proj-Zq9_x7Lm2Wc4Rt8Vb1Nk6Hd3', 'AIzaSyD4-k9Qw2Er7Ty1Ui5Op3As8Df6Gh0J'];

/** Whitespace of every kind a reader shows as a gap or a line break, and `:`. */
const SEPARATORS: Readonly<Record<string, string>> = {
  space: ' ',
  tab: '\t',
  cr: '\r',
  lf: '\n',
  crlf: '\r\n',
  lineSeparator: '\u2028',
  paragraphSeparator: '\u2029',
  noBreakSpace: '\u00a0',
  ideographicSpace: '\u3000',
  colon: ':',
};
/** `-` too, between hex digits and escapes (in base64 it is base64url's digit 62). */
const WITH_DASH = { ...SEPARATORS, dash: '-' };

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** Text before the key inside the blob: 0–3 bytes, so the key starts at each base64 alignment. */
const lead = (size: number) => 'x'.repeat(size);

/**
 * Each form as its digits or escapes, one token each (joined with a separator every `group`
 * tokens), the key `size` bytes into the blob.
 */
const FORMS: Readonly<Record<string, (key: string, size: number) => string[]>> = {
  base64: (key, size) => [...bytes(`${lead(size)}${key}.`).toString('base64')],
  base64url: (key, size) => [...bytes(`${lead(size)}${key}.`).toString('base64url')],
  bearerBase64: (key, size) => [...bytes(`${lead(size)}Bearer ${key}`).toString('base64')],
  hex: (key, size) => [...bytes(`${lead(size)}${key}`).toString('hex')],
  hexUpper: (key, size) => [
    ...bytes(`${lead(size)}${key}`)
      .toString('hex')
      .toUpperCase(),
  ],
  percent: (key) => [...bytes(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`),
  htmlDecimal: (key) => [...key].map((c) => `&#${c.charCodeAt(0)};`),
  htmlHex: (key) => [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`),
  jsonUnicode: (key) => [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  // A JSON escape inside an HTML entity: `&#x5c;u0073` is `\u0073`, which is `s`.
  jsonInEntity: (key) =>
    [...key].map((c) => `&#x5c;u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
};
const BYTE_FORMS = new Set(['base64', 'base64url', 'bearerBase64', 'hex', 'hexUpper']);

/** Separators between every `group` tokens: every digit, pairs, odd groups, PEM's and MIME's lines. */
const GROUPS = [1, 2, 3, 5, 64, 76];

function separated(tokens: readonly string[], group: number, separator: string): string {
  const parts: string[] = [];
  for (let i = 0; i < tokens.length; i += group) parts.push(tokens.slice(i, i + group).join(''));
  return parts.join(separator);
}

/** The blob read without its separators, as a reader joins the lines of a MIME part. */
function joined(text: string): string {
  return text.replace(/[\s:-]/gu, '');
}

const CASES = Object.keys(FORMS).flatMap((form) =>
  Object.entries(form.includes('ase64') ? SEPARATORS : WITH_DASH).map(
    ([name, separator]) => [form, name, separator] as const,
  ),
);

describe('a key in digits or escapes with separators between them', () => {
  it.each(CASES)('%s, %s: found at every group size, scrubbed whole', (form, _name, separator) => {
    for (const key of KEYS)
      for (const group of GROUPS)
        for (const size of BYTE_FORMS.has(form) ? [0, 1, 2, 3, 40] : [0]) {
          const echo = separated(FORMS[form]!(key, size), group, separator);
          const [head, tail] = ['Answer: ', `${separator}(end)`];
          const text = `${head}${echo}${tail}`;
          const out = scrubKey(text, key);
          const where = `${group} per group, key ${size} bytes in: ${JSON.stringify(out)}`;
          expect(carriesKey(text, key), where).toBe(true);
          expect(carriesKey(out, key), where).toBe(false);
          expect(keyScanner(key).leaks(joined(out)), where).toEqual([]);
          expect(out.startsWith(head) && out.endsWith(tail), where).toBe(true);
          expect(out.split(REDACTED).length - 1, where).toBe(1);
          // Escapes are the key's characters alone: one `[redacted]` for all of them.
          if (!BYTE_FORMS.has(form)) expect(out, where).toBe(`${head}${REDACTED}${tail}`);
        }
  });

  it('finds any key in any of them, anywhere in a wrapped blob, in a JSON body too', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.constantFrom(...Object.keys(FORMS)),
        fc.constantFrom(...Object.values(WITH_DASH)),
        fc.integer({ min: 1, max: 80 }),
        fc.nat({ max: 60 }),
        fc.boolean(),
        (key, form, separator, group, size, inJson) => {
          fc.pre(separator !== '-' || !form.includes('ase64'));
          // No letter around it: the spaced view would read one on to a key that repeats its letters.
          const text = `>> [${separated(FORMS[form]!(key, size), group, separator)}] <<`;
          const body = inJson ? JSON.stringify({ detail: text }) : text;
          const scrubbed = scrubKey(body, key);
          const out = inJson ? (JSON.parse(scrubbed) as { detail: string }).detail : scrubbed;
          expect(carriesKey(body, key)).toBe(true);
          expect(keyScanner(key).leaks(joined(out))).toEqual([]);
          expect(out.startsWith('>> [') && out.endsWith('] <<'), JSON.stringify(out)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves spaced hex and wrapped base64 without the key as they are', () => {
    const blob = randomBytes(3000);
    const texts = [
      blob.toString('base64').replace(/.{76}/g, '$&\r\n'),
      blob.toString('base64').replace(/.{64}/g, '$&\n'),
      blob.toString('hex').replace(/../g, '$& '),
      blob.toString('hex').replace(/../g, '$&:'),
      blob.toString('hex').replace(/.{4}/g, '$&-'),
      'de ad be ef ca fe ba be 00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff',
      'Dear customer: your image is ready. Add a face, a bed, a cafe: fade 12 ab 34 cd.',
    ];
    for (const text of texts)
      for (const key of KEYS) {
        expect(scrubKey(text, key)).toBe(text);
        expect(scrubKey(JSON.stringify({ text }), key)).toBe(JSON.stringify({ text }));
      }
  });
});
