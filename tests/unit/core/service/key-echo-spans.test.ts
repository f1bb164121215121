/**
 * What the key scrubber replaces: the key's own characters and the invisible ones BETWEEN them,
 * never those before its first or after its last. The finder reads a key with invisible
 * characters between its letters (zero-width spaces, NUL, ESC, a line break) as the key, and the
 * characters it leaves out once let the letter before them reach over them: a line break after a
 * key's last letter went with it (`P: KEY\n  next` → `P: [redacted]  next`, lines run together
 * in a log). Here every encoding of key-encodings.ts (the tests' own encoders), the key spelt out,
 * and each kind of line break or invisible character before, between and after the echo, in
 * plain text and inside a JSON body (where the line break is an escape, `\n`, `\u0000`); then a
 * property over random surroundings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, carriesKey, scrubKey } from '../../../../electron/core/secrets/key-echo';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyArb,
  keyScanner,
  speltLeaks,
} from '../../../hardening/key-and-bodies/key-encodings';

/** The line breaks and invisible characters put around and inside the echo. */
const AROUND = {
  lineFeed: '\n',
  crlf: '\r\n',
  lineSeparator: '\u2028',
  paragraphSeparator: '\u2029',
  zeroWidthSpace: '\u200b',
  nul: '\0',
  escape: '\u001b',
} as const;
type Around = keyof typeof AROUND;

/**
 * Characters the finder drops wherever they are (controls, default-ignorables): between any
 * echo's characters they are read through. U+2028 and U+2029 show as line breaks: read through
 * between the key's own letters (spelt out) and between base64's or hex's digits (as any
 * whitespace is: key-echo-separators.test.ts), not inside an escape.
 */
const DROPPED: readonly Around[] = ['lineFeed', 'crlf', 'zeroWidthSpace', 'nul', 'escape'];
const LINE_SEPARATORS: readonly Around[] = ['lineSeparator', 'paragraphSeparator'];
/** Forms made of base64's or hex's digits, read through any whitespace between them. */
const DIGITS = /base64|^hex/i;

/** Every encoding the key-safety suites try, and the key spelt out with spaces. */
const FORMS: Readonly<Record<string, (key: string) => string>> = {
  ...Object.fromEntries(
    ENCODING_NAMES.map((name) => [name, (key: string) => ENCODINGS[name]!(key, 1)]),
  ),
  spelt: (key) => [...key].join(' '),
};

/**
 * Forms with more than the key's characters in them: base64 carries the padding bytes and
 * `Bearer ` the key was encoded with (and digits a key's byte shares with them), UTF-16 a NUL
 * before or after a letter (dropped there, no part of the key's letters). Every other form is
 * the key's characters alone and is replaced by exactly one `[redacted]`.
 */
const EXTRA = /^(bearer)?base64|^utf16/i;

const KEYS = ['sk-proj-Zq9_x7Lm2Wc4Rt8Vb1Nk6Hd3', 'AIzaSyD4-k9Qw2Er7Ty1Ui5Op3As8Df6Gh0J'];

/** The echo of `key` in `form`, with `between` between each of its characters. */
function echoOf(key: string, form: string, between: string): string {
  return [...FORMS[form]!(key)].join(between);
}

/**
 * The text where the echo was: one `[redacted]`; for UTF-16, the NUL before its first letter or
 * after its last (and what was `between` them) besides.
 */
function checkMiddle(middle: string, key: string, form: string, between: string): void {
  expect(middle.split(REDACTED).length - 1, 'one stretch').toBe(1);
  expect(keyScanner(key).leaks(middle)).toEqual([]);
  expect(speltLeaks(middle, key)).toEqual([]);
  const rest = middle.replace(REDACTED, '');
  if (!EXTRA.test(form)) expect(middle).toBe(REDACTED);
  else if (form.startsWith('utf16'))
    expect(between ? rest.split(between).join('') : rest).toMatch(/^\0?$/);
}

/** Whether the echo in `form` is the key's own characters (and invisible ones): read as the key. */
function showsKey(form: string): boolean {
  const key = KEYS[0]!;
  return (
    FORMS[form]!(key)
      .replace(/[^A-Za-z0-9_-]/g, '')
      .toLowerCase() === key.toLowerCase()
  );
}

const PLACES = ['before', 'between', 'after'] as const;
type Place = (typeof PLACES)[number];

/** Text before the echo, between its characters, after it: `character` where `place` says. */
function around(place: Place, character: string): readonly [string, string, string] {
  if (place === 'before') return [`P:${character}`, '', ' next'];
  if (place === 'after') return ['P: ', '', `${character}  next`];
  return ['P: ', character, '  next'];
}

const CASES = Object.keys(FORMS).flatMap((form) =>
  (Object.keys(AROUND) as Around[]).map((kind) => [form, kind] as const),
);

describe.each(PLACES)('a line break or invisible character %s the key', (place) => {
  // A visible line break inside an escape makes it no longer one (see DROPPED).
  const cases = CASES.filter(
    ([form, kind]) =>
      place !== 'between' ||
      DROPPED.includes(kind) ||
      showsKey(form) ||
      (DIGITS.test(form) && LINE_SEPARATORS.includes(kind)),
  );
  it.each(cases)('%s, %s: kept where it was, the key redacted whole', (form, kind) => {
    for (const key of KEYS) {
      const [head, between, tail] = around(place, AROUND[kind]);
      const echo = echoOf(key, form, between);
      const text = `${head}${echo}${tail}`;
      const out = scrubKey(text, key);
      expect(out.startsWith(head) && out.endsWith(tail), JSON.stringify(out)).toBe(true);
      checkMiddle(out.slice(head.length, out.length - tail.length), key, form, between);
      expect(carriesKey(out, key)).toBe(false);
      // In a JSON body the line break is an escape (`\n`, `\u0000`), read the same way.
      const body = JSON.stringify({ error: { message: text }, code: 401 });
      const parsed = JSON.parse(scrubKey(body, key)) as { error: { message: string } };
      const message = parsed.error.message;
      expect(message.startsWith(head) && message.endsWith(tail), JSON.stringify(message)).toBe(
        true,
      );
      checkMiddle(message.slice(head.length, message.length - tail.length), key, form, between);
    }
  });
});

describe('a key split across two JSON values, a line break around each half', () => {
  it.each(CASES)('%s, %s: each value keeps its own line breaks', (form, kind) => {
    const character = AROUND[kind];
    for (const key of KEYS) {
      const echo = FORMS[form]!(key);
      const at = Math.floor(echo.length / 2);
      const first = `P:${character}${echo.slice(0, at)}${character}`;
      const second = `${character}${echo.slice(at)}${character}  next`;
      const body = JSON.stringify({ message: first, detail: second, code: 401 });
      const out = scrubKey(body, key);
      expect(carriesKey(out, key), out).toBe(false);
      const parsed = JSON.parse(out) as { message: string; detail: string; code: number };
      expect(Object.keys(parsed)).toEqual(['message', 'detail', 'code']);
      expect(parsed.message).toMatch(new RegExp(`^P:${character}.*${character}$`, 'su'));
      expect(parsed.detail).toMatch(new RegExp(`^${character}.*${character}  next$`, 'su'));
      expect(`${parsed.message}${parsed.detail}`).toContain(REDACTED);
    }
  });
});

/** Characters a text around an echo may hold: none a key, base64, hex or an escape begins with. */
const SURROUNDING = [
  ...Object.values(AROUND),
  ...'\t\u00ad\u2060\ufeff\u200c\u200e\u202e\u0085\u009b\u007f\u{e0041}',
  ...' :,.!?()[]{}<>"\'|~*;@#^$`',
  '鍵が無効です',
  '🔑',
  '\u00a0',
];
/** An escape of one character, or one character: what the echo is made of. */
const UNITS = /&#x?[0-9a-f]+;|&[a-z]+;|%[0-9a-f]{2}|\\u[0-9a-f]{4}|[\s\S]/giu;

const surroundingArb = fc.string({ unit: fc.constantFrom(...SURROUNDING), maxLength: 12 });

describe('scrubbing with random surroundings', () => {
  it('leaves no key, and the text outside the echo as it was', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.constantFrom(...Object.keys(FORMS)),
        surroundingArb,
        surroundingArb,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...DROPPED.map((kind) => AROUND[kind])))),
        fc.boolean(),
        (key, form, before, after, inserts, inJson) => {
          // Invisible characters dropped in at random places between the echo's characters (an
          // escape's whole: `&#9\n7;` in JSON reads `&#9` as a tab before the line break).
          const chars = FORMS[form]!(key).match(UNITS) ?? [];
          for (const [at, character] of inserts) {
            const place = 1 + (at % Math.max(1, chars.length - 1));
            chars.splice(place, 0, character);
          }
          const text = `${before}${chars.join('')}${after}`;
          const body = inJson ? JSON.stringify({ message: text }) : text;
          const scrubbed = scrubKey(body, key);
          const out = inJson ? (JSON.parse(scrubbed) as { message: string }).message : scrubbed;
          expect(carriesKey(scrubbed, key)).toBe(false);
          expect(keyScanner(key).leaks(out)).toEqual([]);
          expect(out.startsWith(before) && out.endsWith(after), JSON.stringify(out)).toBe(true);
          expect(out.slice(before.length, out.length - after.length)).toContain(REDACTED);
        },
      ),
      { numRuns: 400 },
    );
  });
});
