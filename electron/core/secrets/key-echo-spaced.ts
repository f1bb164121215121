/**
 * The key spelt out with anything between its letters (key-echo.ts's last view): a hostile
 * service may echo `s k - p r o j …`, the letters apart on lines of their own (U+2028, which the
 * service's reader makes a space), with tabs, no-break spaces, dots, dashes, emoji or accents
 * between them, and a person still reads the key. What a person reads there is its letters and
 * digits in order, so this view keeps only letters and digits (any script: a letter of another
 * alphabet is no separator, it stands where the key's letter would) and the key is looked for by
 * its own letters and digits. Letters written in a wider form (fullwidth `ｓｋ`, mathematical
 * `𝐬𝐤`, circled, superscript: Unicode's compatibility forms of ASCII) or with an accent (`ś`)
 * are read as the ASCII letter they show.
 *
 * No false alarm on ordinary text: it needs {@link KEY_RUN} of the key's letters and digits in
 * order, a chance of one in 36^12 at each place of a text for a key's random part. What is found
 * is scrubbed as one stretch from the first letter to the last, the separators between with it
 * (the view is `bridged`), never those around it, and never across a quote of the text: the JSON
 * between two strings. A key spelt out across two JSON string values is found in the view of the
 * values side by side (key-echo-views.ts `joinedStringValues`): there it is scrubbed as one
 * stretch per value (the view's `cuts`, where one value ends and the next begins).
 */
import { View } from './key-echo-views';

/**
 * Letters of the Cyrillic and Greek alphabets drawn as an ASCII letter (Unicode's confusables,
 * UTS #39, the single letters that map to one ASCII letter): `ѕk-рrој` is read as `sk-proj`.
 * Only these: a letter that merely resembles one (`к`, `л`) stays its own, and no letter is read
 * as a digit (`О` is O, never 0).
 */
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map(
  [
    ['аеорсухѕіјԁһԛԝӏ', 'aeopcyxsijdhqwl'],
    ['АВЕКМНОРСТХУІЈЅԚԜҮӀ', 'ABEKMHOPCTXYIJSQWYI'],
    ['οανριυγ', 'oavpiuy'],
    ['ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ', 'ABEZHIKMNOPTYX'],
  ].flatMap(([from = '', to = '']) => [...from].map((c, i) => [c, to.charAt(i)] as const)),
);

/** Stands in the view for a quote: no key's letter. */
const STOP = 0xffff;

/** A letter or digit of any script, or a mark-free compatibility form of one. */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * Per BMP code unit: the ASCII letter or digit it shows (its NFKD form without its accents: `ｓ`,
 * `ś`, `ⓢ` are an s; a look-alike letter of another alphabet: `ѕ`), itself for any other
 * letter or digit, 0 for a separator. Built at the first search (a pass over the BMP, some ms):
 * the command line loads this module at start to scrub its output and may never search.
 */
let table: Uint16Array | null = null;

function shown(char: string): number {
  const alike = LOOK_ALIKES.get(char);
  if (alike !== undefined) return alike.charCodeAt(0);
  const compatible = char.normalize('NFKD').replace(/\p{M}/gu, '');
  if (/^[A-Za-z0-9]$/.test(compatible)) return compatible.charCodeAt(0);
  return LETTER_OR_DIGIT.test(char) ? char.charCodeAt(0) : 0;
}

function tableOf(): Uint16Array {
  if (table) return table;
  const made = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if ((code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a))
      made[code] = code;
    else if (code >= 0x80) made[code] = shown(String.fromCharCode(code));
  }
  table = made;
  return made;
}

/** The key's letters and digits, as the view reads them. */
export function keyLetters(key: string): string {
  return key.replace(/[^A-Za-z0-9]/g, '');
}

/**
 * `source` (already unescaped: `%20`, `&nbsp;`, `\u2028` are their characters here) with only its
 * letters and digits. A pair of surrogates (mathematical letters, U+1D400–U+1D7FF) is read as the
 * one character it is.
 */
export function spacedView(source: View): View {
  const shows = tableOf();
  const { codes, length } = source;
  const view = new View(length);
  view.bridged = true;
  for (let i = 0; i < length; i += 1) {
    // A gap in the source: the joined values, the next value begins (a view of one text has none).
    if (i > 0 && !source.follows(i)) (view.cuts ??= new Set()).add(view.length);
    const code = codes[i] ?? 0;
    const low = codes[i + 1] ?? 0;
    // Halves of a pair from two values (`"…\ud83d","\udd11…"`) are no pair: a cut is between.
    const paired = i + 1 < length && source.follows(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && paired && low >= 0xdc00 && low <= 0xdfff) {
      const pair = String.fromCharCode(code, low);
      const letter = shown(pair);
      // Another script's letter keeps its place (one unit that matches no key's letter).
      if (letter !== 0)
        view.push(letter < 0x80 ? letter : 0xfffd, source.from[i] ?? 0, source.to[i + 1] ?? 0);
      i += 1;
      continue;
    }
    const from = source.from[i] ?? 0;
    const to = source.to[i] ?? 0;
    const letter = shows[code] ?? 0;
    if (letter !== 0) view.push(letter, from, to);
    // A quote of the text itself (not one unescaped from `\"`) may end a JSON string: letters on
    // its two sides are never one run, so the JSON between two strings is never scrubbed.
    else if (code === 0x22 && to - from === 1) view.push(STOP, from, to);
  }
  return view;
}
