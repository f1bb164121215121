/**
 * key-echo.ts, the one search for the key in text a server sent back: every encoding of issue 12
 * §4, as a property over keys, encodings and where in a body the echo sits. The encoders here are
 * the test's own (Buffer and hand-written loops), not the module's decoders run backwards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KEY_RUN,
  REDACTED,
  carriesKey,
  findKeyEchoes,
  scrubKey,
} from '../../../../electron/core/service/key-echo';

const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';

/** Realistic keys: 20–100 characters of [A-Za-z0-9_-], half of them in the `sk-` form. */
const keyArb = fc
  .tuple(
    fc.boolean(),
    fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 20, maxLength: 100 }),
  )
  .map(([sk, body]) => (sk ? `sk-${body}` : body));

const bytes = (text: string) => Buffer.from(text, 'utf8');
const pad = (prefix: number, text: string) =>
  Buffer.concat([Buffer.alloc(prefix, 0x41), bytes(text)]);

/** Each encoding the service may echo the key in. `shift` moves base64 to another alignment. */
export const ENCODINGS: Readonly<Record<string, (text: string, shift: number) => string>> = {
  raw: (text) => text,
  upper: (text) => text.toUpperCase(),
  base64: (text, shift) => pad(shift % 3, text).toString('base64'),
  base64url: (text, shift) => pad(shift % 3, text).toString('base64url'),
  bearerBase64: (text, shift) => pad(shift % 3, `Bearer ${text}`).toString('base64'),
  bearerBase64url: (text, shift) => pad(shift % 3, `Bearer ${text}`).toString('base64url'),
  hexLower: (text) => bytes(text).toString('hex'),
  hexUpper: (text) => bytes(text).toString('hex').toUpperCase(),
  percentEveryByte: (text) =>
    [...bytes(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  percentEveryByteUpper: (text) =>
    [...bytes(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  percentOrdinary: (text) => encodeURIComponent(text),
  htmlDecimal: (text) => [...text].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  htmlHex: (text) => [...text].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
  htmlNamed: (text) => text.replace(/-/g, '&#45;').replace(/_/g, '&lowbar;'),
  utf16le: (text) => Buffer.from(text, 'utf16le').toString('latin1'),
  utf16be: (text) => Buffer.from(text, 'utf16le').swap16().toString('latin1'),
  jsonUnicodeEscapes: (text) =>
    [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  zeroWidth: (text, shift) =>
    [...text].join(['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'][shift % 6]),
};

const ENCODING_NAMES = Object.keys(ENCODINGS);

/** Whether two keys have a run of KEY_RUN characters in common (either case). */
function sharesRun(a: string, b: string): boolean {
  const lower = a.toLowerCase();
  for (let i = 0; i + KEY_RUN <= b.length; i += 1)
    if (lower.includes(b.slice(i, i + KEY_RUN).toLowerCase())) return true;
  return false;
}

describe('findKeyEchoes', () => {
  it('finds the key in every encoding, anywhere in a JSON body, and scrubbing leaves none', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.constantFrom(...ENCODING_NAMES),
        fc.nat(5),
        fc.string({ maxLength: 20 }),
        (key, encoding, shift, filler) => {
          const echo = ENCODINGS[encoding]!(key, shift);
          const body = JSON.stringify({ filler, error: { message: `bad ${echo} here`, filler } });
          expect(carriesKey(body, key), encoding).toBe(true);
          const scrubbed = scrubKey(body, key);
          expect(carriesKey(scrubbed, key)).toBe(false);
          expect(scrubbed).toContain(REDACTED);
          // Inside a string the echo is replaced inside it: the body still parses.
          expect(() => JSON.parse(scrubbed) as unknown).not.toThrow();
        },
      ),
      { numRuns: 400 },
    );
  });

  it(`counts any ${KEY_RUN} consecutive characters of the key, and nothing shorter`, () => {
    fc.assert(
      fc.property(keyArb, fc.nat(), fc.constantFrom(...ENCODING_NAMES), (key, at, encoding) => {
        const start = at % (key.length - KEY_RUN + 1);
        const run = key.slice(start, start + KEY_RUN);
        expect(carriesKey(`x ${ENCODINGS[encoding]!(run, 0)} y`, key)).toBe(true);
        expect(carriesKey(`x ${key.slice(start, start + KEY_RUN - 1)} y`, key)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a key split across two JSON fields, and scrubs both halves inside their strings', () => {
    fc.assert(
      fc.property(keyArb, fc.nat(), (key, cut) => {
        const at = 1 + (cut % (key.length - 1));
        const body = JSON.stringify({ id: key.slice(0, at), url: key.slice(at) });
        expect(carriesKey(body, key)).toBe(true);
        const scrubbed = JSON.parse(scrubKey(body, key)) as { id: string; url: string };
        expect(`${scrubbed.id}${scrubbed.url}`).toContain(REDACTED);
        expect(carriesKey(JSON.stringify(scrubbed), key)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('finds the first part of a key cut at the end of a body', () => {
    const key = `sk-${'Zq9_'.repeat(10)}`;
    const body = `${'x'.repeat(1024 * 1024 - KEY_RUN)}${key}`.slice(0, 1024 * 1024);
    expect(findKeyEchoes(body, key)).toEqual([[1024 * 1024 - KEY_RUN, 1024 * 1024]]);
  });

  it('leaves ordinary text and other keys alone', () => {
    fc.assert(
      fc.property(keyArb, keyArb, (key, other) => {
        fc.pre(!sharesRun(key, other));
        const body = JSON.stringify({ message: `rate limited for ${other}`, code: 429 });
        expect(scrubKey(body, key)).toBe(body);
      }),
      { numRuns: 200 },
    );
  });
});
