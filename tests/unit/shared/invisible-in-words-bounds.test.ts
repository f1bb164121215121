/**
 * The rule of a user's word (`invisibleInWords`) reads around each invisible character to tell
 * whether it draws (a flag's tag letters, a joiner after a letter's marks). A lookaround that may
 * repeat without bound reads the whole run again at each character: a crafted run of 100,000 tag
 * characters after 🏴 (a published schema's text default, checked before its length is) took
 * seconds. Every repetition in the rule is bounded; the bounds are what real words need.
 */
import { describe, expect, it } from 'vitest';
import { invisibleInWords } from '../../../shared/text/control-characters';

/** The rule's repetitions outside character classes that have no upper bound (`*`, `+`, `{n,}`). */
function unbounded(source: string): string[] {
  const found: string[] = [];
  let inClass = false;
  for (let at = 0; at < source.length; at += 1) {
    const c = source[at]!;
    if (c === '\\') {
      // An escape, with its braces when it has them (\u{…}, \p{…}).
      at += source[at + 2] === '{' ? source.indexOf('}', at) - at : 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '*' || c === '+') found.push(`${c} at ${at}`);
    else if (c === '{' && /^\{\d*,\}/.test(source.slice(at))) found.push(`{n,} at ${at}`);
  }
  return found;
}

const TAG = (letters: string) =>
  [...letters].map((l) => String.fromCodePoint(0xe0000 + l.codePointAt(0)!)).join('');
const FLAG = (letters: string) => `\u{1f3f4}${TAG(letters)}\u{e007f}`;

describe('the rule of a user’s word', () => {
  it('repeats nothing without bound, so each character costs a few steps however long the run', () => {
    expect(unbounded(invisibleInWords().source)).toEqual([]);
    // The check reads what it is meant to: an unbounded repetition is found.
    expect(unbounded('(?<=\\u{1f3f4}[\\u{e0020}-\\u{e007e}]*)x')).toHaveLength(1);
    expect(unbounded('a{2,}[*+]\\*')).toHaveLength(1);
  });

  it('keeps the flags real subdivisions have, and refuses a run longer than any', () => {
    const rule = invisibleInWords();
    for (const flag of [FLAG('gbsct'), FLAG('gbeng'), FLAG('usca'), FLAG('frbre')]) {
      expect(rule.test(flag), flag).toBe(false);
    }
    expect(rule.test(FLAG('abcdefgh'))).toBe(true);
    expect(rule.test(`\u{1f3f4}${TAG('g'.repeat(100_000))}\u{e007f}`)).toBe(true);
  });

  it('keeps a half space after a letter with its marks, and reads no further than a letter has', () => {
    const rule = invisibleInWords();
    expect(rule.test('\u0628\u064e\u0651\u200c\u0628')).toBe(false);
    expect(rule.test(`\u0628${'\u064e'.repeat(100_000)}\u200c\u0628`)).toBe(true);
  });
});
