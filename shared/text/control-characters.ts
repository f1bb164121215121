/**
 * The characters that steer, hide or reorder text, declared once for every place that refuses,
 * strips or shows them (a task id, a key, a request path, a link, an archive entry, a save name,
 * release notes, a terminal line). Each set is the body of a regular-expression character class,
 * written with `\u` escapes so no raw control character sits in the source; {@link anyOf} joins
 * sets into one class.
 */

/** C0 controls, U+0000–U+001F: NUL, TAB, LF, CR and ESC (which starts terminal sequences) among them. */
export const C0_CONTROLS = '\\u0000-\\u001f';
/**
 * The C0 controls but the line feed: what a pasted command may not hold even inside its quotes
 * (a line feed there is the quoted text's own new line; ESC, ^U, TAB or CR act on the terminal).
 */
export const C0_CONTROLS_BUT_LINE_FEED = '\\u0000-\\u0009\\u000b-\\u001f';
/** DEL and the C1 controls, U+007F–U+009F (U+009B is a one-character CSI to many terminals). */
export const DEL_AND_C1_CONTROLS = '\\u007f-\\u009f';
/** Every control character: C0, DEL and C1. */
export const CONTROL_CHARACTERS = C0_CONTROLS + DEL_AND_C1_CONTROLS;
/**
 * Bidirectional formatting: the Arabic letter mark, LRM and RLM, the embeddings and overrides
 * (U+202A–U+202E) and the isolates (U+2066–U+2069). They make text read in another order than it
 * runs (a command printed backwards, a file name whose extension seems to be another).
 */
export const BIDI_CONTROLS = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** The line and paragraph separators: line breaks to some readers, none to others. */
export const LINE_SEPARATORS = '\\u2028\\u2029';
/**
 * The Hangul fillers: letters (Lo, not format characters) that draw as blank space. A name or
 * word made of them, or padded with them, reads as nothing or as another one.
 */
export const HANGUL_FILLERS = '\\u115f\\u1160\\u3164\\uffa0';
/**
 * What draws nothing: every format character (Cf: zero-width spaces, the word joiner, the BOM,
 * the soft hyphen, tag characters, U+180E, the interlinear annotation marks) and every other
 * default-ignorable code point (variation selectors, the Hangul fillers, U+034F, the unassigned
 * ones a later Unicode may make format characters). Two names that differ by one show alike.
 * Needs a `u` flag ({@link anyOf}'s `flags`).
 */
export const INVISIBLES = '\\p{Cf}\\p{Default_Ignorable_Code_Point}';

/**
 * The characters of {@link INVISIBLES} that real words need, as a lookahead's body: each matches
 * where such a character draws (it joins or selects a shape), so `(?!…)` before a class of
 * INVISIBLES leaves it out. A zero-width joiner between two pictographs (👩‍💻, 🏳️‍🌈) and the
 * emoji or text presentation selector after one (❤️, and a keycap's `1️⃣`); the tag characters of a
 * subdivision flag (🏴 then tag letters then the cancel tag: 🏴󠁧󠁢󠁳󠁣󠁴󠁿); a Mongolian free
 * variation selector after a Mongolian letter; a zero-width (non-)joiner between two letters of a
 * script that joins or conjoins its letters (Persian's half space, Arabic, Syriac, N'Ko, the
 * Indic scripts' half forms), where it changes the letters' shapes. Anywhere else they draw
 * nothing, and `keep\u200d` shows as `keep`.
 */
const JOINING =
  '\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Nko}\\p{Script=Devanagari}\\p{Script=Bengali}' +
  '\\p{Script=Gurmukhi}\\p{Script=Gujarati}\\p{Script=Oriya}\\p{Script=Tamil}\\p{Script=Telugu}' +
  '\\p{Script=Kannada}\\p{Script=Malayalam}\\p{Script=Sinhala}';
/**
 * The most tag letters a subdivision flag has (a region's two letters and up to four of its
 * subdivision's: `gbsct` is five), and the most combining marks read on one letter before a
 * joiner. Every lookaround below is bounded: an unbounded one (`[tags]*` behind each character)
 * reads the whole run again at each character, so a crafted run of 100,000 tag characters (a
 * published schema's default) cost seconds; bounded, each character costs a few steps.
 */
const FLAG_TAGS = 7;
const MARKS_ON_A_LETTER = 8;
const DRAWN_IN_WORDS = [
  '(?<=[\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\ufe0f])\\u200d(?=\\p{Extended_Pictographic})',
  '(?<=\\p{Extended_Pictographic})[\\ufe0e\\ufe0f]',
  '(?<=[#*0-9])\\ufe0f(?=\\u20e3)',
  `(?<=\\u{1f3f4}[\\u{e0020}-\\u{e007e}]{0,${FLAG_TAGS - 1}})[\\u{e0020}-\\u{e007e}](?=[\\u{e0020}-\\u{e007e}]{0,${FLAG_TAGS - 1}}\\u{e007f})`,
  `(?<=\\u{1f3f4}[\\u{e0020}-\\u{e007e}]{1,${FLAG_TAGS}})\\u{e007f}`,
  '(?<=[\\u1820-\\u1878\\u1880-\\u18aa])[\\u180b-\\u180d\\u180f]',
  `(?<=[${JOINING}]\\p{M}{0,${MARKS_ON_A_LETTER}})[\\u200c\\u200d](?=[${JOINING}])`,
].join('|');

/** {@link invisibleInWords}' expressions, each built on its first call. */
const builtInWords = new Map<string, RegExp>();

/**
 * A character of {@link INVISIBLES} that draws nothing where it stands: every one but those
 * {@link DRAWN_IN_WORDS} keeps. The one test of a user's word (a tag, a board's name) that must
 * not read as another; `g` in `flags` finds them all (to fold them out of a key: `replace`, which
 * starts a `g` expression at 0 whatever it did before). Built on the first call for each `flags`
 * and kept: its property classes make V8 build their ranges from ICU's tables, so a module calls
 * this when it tests a word, not when it loads (built at load, five of them and the hosts' script
 * tests, shown-host.ts, were 8 % of the instructions of `pictor list --json`).
 */
export function invisibleInWords(flags = 'u'): RegExp {
  let rule = builtInWords.get(flags);
  if (rule === undefined) {
    rule = new RegExp(`(?!${DRAWN_IN_WORDS})[${INVISIBLES}]`, flags);
    builtInWords.set(flags, rule);
  }
  return rule;
}

/** One character of any of `sets` (strings of this file, or other class bodies). */
export function anyOf(sets: readonly string[], flags = ''): RegExp {
  return new RegExp(`[${sets.join('')}]`, flags);
}
