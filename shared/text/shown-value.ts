/**
 * A value from a file, a service or a record (a file or template name, a folder, a service's
 * error text, a prompt) as it is spliced into a sentence a person reads and decides on: a native
 * dialog, a notification, an error sentence, a confirmation in the window, a CLI message. Every
 * placeholder of both catalogues is filled through it (i18n/localized-numbers.ts textParams), so
 * no surface can forget it.
 *
 * Sentence and value stay apart: a line break or a line separator in the value would start a
 * paragraph of its own ("…\n\nPictor checked this file."), and is one space; a run of spaces is
 * one space (a name padded to push its true end out of the box). A character that steers, hides
 * or reorders text (a control, bidi formatting such as U+202E that shows `gnp.exe` as `exe.png`,
 * a zero-width space, a word joiner, a BOM, a tag character, a Hangul filler, half a surrogate
 * pair) is shown as U+FFFD, one per character, never silently dropped: two names that differ
 * only by one must not read as the same name in "Delete …?". The zero-width joiner and non-joiner
 * stay: Persian, the Indic scripts and emoji sequences need them and they hide nothing. So do the
 * directional marks (LRM, RLM, ALM): the locale's own dates, numbers and amounts carry them in
 * Arabic, Hebrew and Persian, and a mark only places the punctuation beside it; the embeddings,
 * overrides and isolates, which turn whole runs around, never stay.
 */
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  HANGUL_FILLERS,
  LINE_SEPARATORS,
  anyOf,
} from './control-characters';

/** What stands in for a character that would steer or hide text. */
export const HIDDEN_MARK = '\uFFFD';

/** Line and paragraph breaks and tabs: white space between words, one space in a sentence. */
const BREAKS = anyOf(['\\t\\n\\u000b\\u000c\\r\\u0085', LINE_SEPARATORS], 'g');
/**
 * Controls, bidi formatting, every format character (Cf), surrogate halves (Cs) and the Hangul
 * fillers (letters that draw nothing).
 */
const STEERING = anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, '\\p{Cf}\\p{Cs}', HANGUL_FILLERS], 'gu');
/** The joiners and the directional marks (see above). */
const KEPT = new Set(['\u200c', '\u200d', '\u200e', '\u200f', '\u061c']);
/** Printable ASCII without two spaces in a row: the common case, left as it is without a scan. */
const PLAIN = /^(?:[\x21-\x7e]| (?! ))*$/;

/** `value` as one line of text that cannot steer, hide or reorder the sentence around it. */
export function shownValue(value: string): string {
  if (PLAIN.test(value)) return value;
  return value
    .replace(BREAKS, ' ')
    .replace(STEERING, (char) => (KEPT.has(char) ? char : HIDDEN_MARK))
    .replace(/\s{2,}/gu, ' ');
}
