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

/** One character of any of `sets` (strings of this file, or other class bodies). */
export function anyOf(sets: readonly string[], flags = ''): RegExp {
  return new RegExp(`[${sets.join('')}]`, flags);
}
