/**
 * What a user's word may hold that draws nothing, for the tests of the one rule
 * (shared/text/control-characters.ts `invisibleInWords`) wherever a name is given: every such code
 * point, and the words whose joiners, selectors and tag characters do draw (what real text needs).
 */

/** Every code point that draws nothing (format or default-ignorable), surrogates aside. */
export function everyInvisible(): number[] {
  const invisible = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
  const every: number[] = [];
  for (let code = 0; code <= 0x10ffff; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if (invisible.test(String.fromCodePoint(code))) every.push(code);
  }
  return every;
}

/** A code point as a sentence names it: `U+200B`. */
export const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** Words whose joiners, selectors and tag characters draw (what real text needs). */
export const REAL_WORDS = {
  'a family (ZWJ)': '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  'a technologist of a skin tone (modifier, ZWJ)': '\u{1f469}\u{1f3fd}\u200d\u{1f4bb}',
  'the rainbow flag (VS16, ZWJ)': '\u{1f3f3}\ufe0f\u200d\u{1f308}',
  'a heart on fire': '\u2764\ufe0f\u200d\u{1f525}',
  'a red heart (VS16)': '\u2764\ufe0f',
  'a text-style heart (VS15)': '\u2764\ufe0e',
  'a keycap': '1\ufe0f\u20e3',
  "Scotland's flag (tag characters)":
    '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
  'a Mongolian letter with FVS1': '\u1820\u180b',
  'Persian with a half space (ZWNJ)': 'می\u200cخواهم',
  'a Devanagari half form (ZWJ)': 'क्\u200dष',
} as const;

/** Names that show as `keep` but are not: a character that draws nothing inside or at the end. */
export const TWINS_OF_KEEP = [
  'keep\u200b',
  'ke\u2060ep',
  'keep\u00ad',
  'keep\u3164',
  'keep\u034f',
  'keep\ufe00',
  'keep\u{e0041}',
  'keep\u200d',
  'keep\ufe0f',
];
