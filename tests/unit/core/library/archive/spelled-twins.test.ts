/**
 * Which of a name's spellings side by side (entry-path.ts `spelledTwins`) a folder import and a
 * rebuild take: the NFC one, else the least in code-unit order; never the one a disk happened to
 * list first. Every order of each group is tried.
 */
import { describe, expect, it } from 'vitest';
import { spelledTwins } from '../../../../../electron/core/library/archive/entry-path';

function orders<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, at) =>
    orders([...items.slice(0, at), ...items.slice(at + 1)]).map((rest) => [item, ...rest]),
  );
}

/** The spellings `spelledTwins` keeps of `paths`. */
function kept(paths: readonly string[]): string[] {
  const twins = spelledTwins(paths);
  return paths.filter((_, index) => !twins.has(index)).sort();
}

describe('spellings of one name side by side', () => {
  const groups: ReadonlyArray<[string, string[]]> = [
    ['NFC over NFD', ['Caf\u00e9', 'Cafe\u0301']],
    ['a letter over the Kelvin sign', ['K', '\u212a']],
    ['a letter over the Ångström sign and a decomposed A', ['\u00c5', '\u212b', 'A\u030a']],
    ['of two not NFC, the least', ['K\u0301', '\u212a\u0301']],
    ['NFC over two that are not', ['\u1e30', 'K\u0301', '\u212a\u0301']],
  ];
  for (const [name, group] of groups) {
    it(`takes ${name}, in every order listed`, () => {
      const [taken] = group;
      for (const order of orders(group)) {
        expect(kept([...order, 'other', 'Other'])).toEqual([taken, 'Other', 'other'].sort());
      }
    });
  }
});
