/**
 * key-echo.ts, the one search for the key in text a server sent back: every encoding the
 * key-safety suites try, as a property over keys, encodings and where in a body the echo sits. The encoders are
 * the tests' own (key-encodings.ts: Buffer and hand-written loops), not the module's decoders.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KEY_RUN,
  REDACTED,
  carriesKey,
  findKeyEchoes,
  scrubKey,
} from '../../../../electron/core/secrets/key-echo';
import { keyLetters } from '../../../../electron/core/secrets/key-echo-spaced';
import { ENCODINGS, ENCODING_NAMES, keyArb } from '../../../hardening/key-and-bodies/key-encodings';

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

  it('finds each of several keys in one search, each in its own encoding, and scrubs them all', () => {
    fc.assert(
      fc.property(
        fc.tuple(keyArb, keyArb, keyArb),
        fc.constantFrom(...ENCODING_NAMES),
        fc.constantFrom(...ENCODING_NAMES),
        fc.nat(5),
        ([sent, held, absent], first, second, shift) => {
          // The values side by side read as one text (spelt out too): the absent key is not in it.
          const read = `bad ${sent}${held}`;
          fc.pre(!sharesRun(absent, read) && !sharesRun(keyLetters(absent), keyLetters(read)));
          const echoSent = ENCODINGS[first]!(sent, shift);
          const echoHeld = ENCODINGS[second]!(held, shift + 1);
          const body = JSON.stringify({ error: { message: `bad ${echoSent}`, code: echoHeld } });
          const keys = [absent, sent, held];
          expect(carriesKey(body, keys), `${first}, ${second}`).toBe(true);
          // Each key alone is found where it is, whatever the others.
          expect(carriesKey(JSON.stringify({ code: echoHeld }), keys), second).toBe(true);
          const scrubbed = scrubKey(body, keys);
          for (const key of keys) expect(carriesKey(scrubbed, key)).toBe(false);
          expect(() => JSON.parse(scrubbed) as unknown).not.toThrow();
          // A key that is not there is not found for being listed.
          expect(carriesKey(body, [absent])).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it(`counts any ${KEY_RUN} consecutive characters of the key, and nothing shorter`, () => {
    fc.assert(
      fc.property(keyArb, fc.nat(), fc.constantFrom(...ENCODING_NAMES), (key, at, encoding) => {
        const start = at % (key.length - KEY_RUN + 1);
        const run = key.slice(start, start + KEY_RUN);
        // The x and y around a shorter run are no letters of the key next to it (the key spelt
        // out with a space between its letters is an echo of it too: key-echo-spaced.ts).
        const letters = keyLetters(key).toLowerCase();
        const short = keyLetters(key.slice(start, start + KEY_RUN - 1)).toLowerCase();
        fc.pre(!letters.includes(`x${short}`) && !letters.includes(`${short}y`));
        expect(carriesKey(`x ${ENCODINGS[encoding]!(run, 0)} y`, key)).toBe(true);
        expect(carriesKey(`x ${key.slice(start, start + KEY_RUN - 1)} y`, key)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a key split across two JSON fields, in any encoding, and scrubs only inside them', () => {
    fc.assert(
      fc.property(keyArb, fc.constantFrom(...ENCODING_NAMES), fc.nat(), (key, encoding, cut) => {
        const echo = ENCODINGS[encoding]!(key, cut);
        const at = 1 + (cut % (echo.length - 1));
        const next = 'https://cdn.example/ok.png';
        const body = JSON.stringify({ id: echo.slice(0, at), url: echo.slice(at), next });
        expect(carriesKey(body, key), encoding).toBe(true);
        const scrubbed = JSON.parse(scrubKey(body, key)) as Record<string, string>;
        expect(Object.keys(scrubbed)).toEqual(['id', 'url', 'next']);
        // The JSON between the two strings is never scrubbed with them.
        expect(scrubbed['next']).toMatch(/ok\.png$/);
        expect(carriesKey(JSON.stringify(scrubbed), key)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('finds the key spelt out with any separator between its letters, and scrubs only it', () => {
    const separators = [
      ' ',
      '\u2028',
      '\u2029',
      '\t',
      '\r\n',
      '\u00a0',
      '\u3000',
      '. ',
      '-',
      '\u{1f511}',
      '&nbsp;',
      '\\u2028',
      '%20',
    ];
    fc.assert(
      fc.property(keyArb, fc.constantFrom(...separators), fc.nat(), (key, separator, at) => {
        const start = at % (key.length - KEY_RUN + 1);
        // What is looked for spelt out is a run of the key's letters and digits.
        fc.pre(keyLetters(key.slice(start)).length >= KEY_RUN);
        const echo = [...key.slice(start)].join(separator);
        // No letters around the echo: a letter there could be the key's own next one (`key: y a b`).
        const body = JSON.stringify({ error: { message: `→ ${echo} ←`, code: 401 } });
        expect(carriesKey(body, key), JSON.stringify(separator)).toBe(true);
        const scrubbed = scrubKey(body, key);
        expect(carriesKey(scrubbed, key)).toBe(false);
        // The text around the echo stays, and the body still parses (a key's own punctuation at
        // its ends may stay too: the key is looked for by its letters and digits).
        const { error } = JSON.parse(scrubbed) as { error: { message: string } };
        expect(error.message).toMatch(/^→ .*\[redacted\].* ←$/s);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a key spelt out across two JSON values, and scrubs each value apart', () => {
    const separators = [' ', '\u2028', '. ', '\\u2028', '&nbsp;', '\u{1f511}'];
    fc.assert(
      fc.property(keyArb, fc.constantFrom(...separators), fc.nat(), (key, separator, cut) => {
        fc.pre(keyLetters(key).length >= KEY_RUN);
        const echo = [...key].join(separator);
        const at = 1 + (cut % (echo.length - 1));
        const next = 'https://cdn.example/ok.png';
        // Names and other JSON between the halves: a person reading the body reads the values.
        const body = JSON.stringify({
          error: { message: `Refused: ${echo.slice(0, at)}`, code: 401 },
          detail: `${echo.slice(at)} ←`,
          next,
        });
        expect(carriesKey(body, key), JSON.stringify(separator)).toBe(true);
        const scrubbed = scrubKey(body, key);
        expect(carriesKey(scrubbed, key)).toBe(false);
        const parsed = JSON.parse(scrubbed) as {
          error: { message: string; code: number };
          detail: string;
          next: string;
        };
        expect(Object.keys(parsed)).toEqual(['error', 'detail', 'next']);
        expect(parsed.error.code).toBe(401);
        // The text before the echo stays, but for letters that continue a run of the key's own
        // letters across it: a key holding "…dprop…" is read in "Refused: p r o p…" from the d.
        const [head = ''] = parsed.error.message.split('[redacted]');
        const kept = head.startsWith('Refused: ') || 'Refused: '.startsWith(head);
        expect(kept, parsed.error.message).toBe(true);
        expect(parsed.detail).toMatch(/ ←$/);
        expect(parsed.next).toBe(next);
      }),
      { numRuns: 300 },
    );
  });

  it('finds no key in the values of an ordinary body read side by side', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.array(fc.constantFrom(...'the quick brown fox jumps over a lazy dog'.split(' ')), {
          minLength: 2,
          maxLength: 40,
        }),
        (key, words) => {
          fc.pre(
            !keyLetters(words.join(''))
              .toLowerCase()
              .includes(keyLetters(key).toLowerCase().slice(0, KEY_RUN)),
          );
          const body = JSON.stringify(Object.fromEntries(words.map((word, i) => [`f${i}`, word])));
          expect(scrubKey(body, key)).toBe(body);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads Cyrillic and Greek letters drawn as the key’s own, and ordinary such text as itself', () => {
    const alike: Record<string, string[]> = {
      a: ['а', 'α'],
      e: ['е'],
      o: ['о', 'ο'],
      p: ['р', 'ρ'],
      c: ['с'],
      x: ['х'],
      s: ['ѕ'],
      i: ['і', 'ι'],
      y: ['у', 'γ'],
      A: ['А', 'Α'],
      B: ['В', 'Β'],
      E: ['Е', 'Ε'],
      H: ['Н', 'Η'],
      K: ['К', 'Κ'],
      M: ['М', 'Μ'],
      O: ['О', 'Ο'],
      P: ['Р', 'Ρ'],
      T: ['Т', 'Τ'],
      X: ['Х', 'Χ'],
    };
    fc.assert(
      fc.property(keyArb, fc.nat(), fc.constantFrom('', ' '), (key, pick, separator) => {
        fc.pre(keyLetters(key).length >= KEY_RUN);
        const echo = [...key]
          .map((c, i) => alike[c]?.[(pick + i) % alike[c].length] ?? c)
          .join(separator);
        const body = JSON.stringify({ error: { message: `→ ${echo} ←` } });
        expect(carriesKey(body, key), echo).toBe(true);
        expect(carriesKey(scrubKey(body, key), key)).toBe(false);
        // Ordinary Russian and Greek text is no key.
        const text = 'Сервис перегружен, попробуйте позже. Η υπηρεσία είναι απασχολημένη.';
        expect(scrubKey(text, key)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('finds no key in ordinary spaced-out text without its letters in order', () => {
    fc.assert(
      fc.property(
        keyArb,
        fc.array(fc.constantFrom(...'the quick brown fox jumps over a lazy dog'.split(' ')), {
          maxLength: 40,
        }),
        fc.constantFrom(' ', '\u2028', '\u00a0', ' - '),
        (key, words, separator) => {
          const text = [...words.join(' ')].join(separator);
          fc.pre(
            !keyLetters(`${words.join('')}`)
              .toLowerCase()
              .includes(keyLetters(key).toLowerCase().slice(0, KEY_RUN)),
          );
          expect(scrubKey(text, key)).toBe(text);
        },
      ),
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
