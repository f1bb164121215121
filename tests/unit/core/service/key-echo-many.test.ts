/**
 * keyCarriers (secrets/key-echo-many.ts) searches many short texts joined, and each found one
 * again alone: what it finds must be exactly what carriesKey finds of each text alone, for ids of
 * every kind (plain ones joined, ones with escapes, quotes, invisible or non-ASCII characters),
 * a key's run in any encoding at any place, split across two neighbours, or none.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carriesKey, keyCarriers } from '../../../../electron/core/secrets';
import { ENCODINGS, ENCODING_NAMES } from '../../../hardening/key-and-bodies/key-encodings';

const KEYS = ['sk-many-7d1e0c94b2a8f63e15c7', 'r8_many-Hn3Wc7Ky5Bd1Qz8x'];
const PIECES = [
  'a',
  'Z',
  '0',
  '-',
  '_',
  '.',
  ':',
  '/',
  '+',
  '=',
  ' ',
  '|',
  '%',
  '%4',
  '\\',
  '\\u00',
  '&',
  '&#',
  '"',
  "'",
  '\u200b',
  'é',
  '\0',
  '{',
  '}',
];

/** An id: pieces of text around, perhaps, a run of a key in some encoding. */
const idArb = fc
  .tuple(
    fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }),
    fc.option(
      fc.tuple(
        fc.constantFrom(...KEYS),
        fc.constantFrom(...ENCODING_NAMES),
        fc.nat(3),
        fc.nat(12),
        fc.integer({ min: 10, max: 30 }),
      ),
    ),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }),
  )
  .map(([before, echo, after]) => {
    const run = echo ? ENCODINGS[echo[1]]!(echo[0].slice(echo[3], echo[3] + echo[4]), echo[2]) : '';
    return `${before.join('')}${run}${after.join('')}`;
  });

/** A key split across two JSON string values inside one id (found only with them joined). */
const splitArb = fc
  .tuple(fc.constantFrom(...KEYS), fc.integer({ min: 4, max: 16 }))
  .map(([key, cut]) => `{"a":"${key.slice(0, cut)}","b":"${key.slice(cut)}"}`);

describe('keyCarriers', () => {
  it('finds exactly the texts carriesKey finds alone', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(idArb, idArb, splitArb), { maxLength: 60 }), (ids) => {
        const alone = ids.flatMap((id, at) => (carriesKey(id, KEYS) ? [at] : []));
        expect(keyCarriers(ids, KEYS)).toEqual(alone);
      }),
      { numRuns: 300 },
    );
  });

  it('finds them among many thousands joined, a key split across two neighbours found in neither', () => {
    const ids = Array.from({ length: 30_000 }, (_, n) => `task-${n.toString(36).padStart(8, '0')}`);
    ids[7] = `a${KEYS[0]!.slice(0, 8)}`;
    ids[8] = `${KEYS[0]!.slice(8, 16)}b`;
    ids[12_345] = `task-${Buffer.from(KEYS[1]!).toString('base64')}`;
    ids[29_999] = `task-${Buffer.from(KEYS[0]!).toString('hex')}`;
    expect(keyCarriers(ids, KEYS)).toEqual([12_345, 29_999]);
  });
});
