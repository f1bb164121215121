/**
 * Views of a text for key-echo.ts: the same text decoded one way or another, each character
 * remembering the stretch `[from, to)` of the original text it came from, so that what is found
 * in a view can be scrubbed from the original. Every view is built in one pass over its source.
 */

import { NAMED } from './key-echo-entities';
import { invisibleTable } from './invisible-characters';

/** A decoded text (UTF-16 code units) with, per unit, where in the original text it came from. */
export class View {
  codes: Uint16Array;
  from: Int32Array;
  to: Int32Array;
  /**
   * Per unit, where the dropped characters (invisible, NUL, an escape of one) right after it end
   * in the original, else its `to`. A unit that begins by then {@link follows} it: a key with
   * zero-width spaces between its letters is one stretch from its first letter to its last, and
   * what was dropped around it is no part of it (a line break after the key stays).
   */
  reach: Int32Array;
  length = 0;
  /**
   * Characters left out between two of its neighbours are part of what they spell (the spaced
   * view): a run found is one stretch of the original from its first character to its last.
   */
  bridged = false;
  /**
   * Of a bridged view, the positions that begin a new stretch: its first character from another
   * JSON string value than the one before it (the spaced view of the joined values). What is
   * found across them is scrubbed as one stretch per value, never the JSON between.
   */
  cuts: Set<number> | null = null;

  constructor(capacity: number) {
    const size = Math.max(1, capacity);
    this.codes = new Uint16Array(size);
    this.from = new Int32Array(size);
    this.to = new Int32Array(size);
    this.reach = new Int32Array(size);
  }

  /** A unit read from `[from, to)`, the characters dropped after that reaching to `reach`. */
  push(code: number, from: number, to: number, reach = to): void {
    if (this.length === this.codes.length) this.#grow();
    this.codes[this.length] = code;
    this.from[this.length] = from;
    this.to[this.length] = to;
    this.reach[this.length] = reach;
    this.length += 1;
  }

  /**
   * Characters from `from` to `reach` that were dropped (invisible, NUL): the unit before them
   * now reaches over them (its `to` stays), so the next unit still follows it. Not across a gap
   * (the JSON between two joined values), which nothing follows over.
   */
  absorb(from: number, reach: number): void {
    const last = this.length - 1;
    if (last >= 0 && (this.reach[last] ?? 0) >= from)
      this.reach[last] = Math.max(this.reach[last] ?? 0, reach);
  }

  /** Whether unit `at` follows unit `at - 1` with nothing but dropped characters between. */
  follows(at: number): boolean {
    return (this.from[at] ?? 0) <= (this.reach[at - 1] ?? -1);
  }

  #grow(): void {
    const size = this.codes.length * 2;
    const codes = new Uint16Array(size);
    codes.set(this.codes);
    this.codes = codes;
    for (const name of ['from', 'to', 'reach'] as const) {
      const wider = new Int32Array(size);
      wider.set(this[name]);
      this[name] = wider;
    }
  }
}

/**
 * Tag characters (U+E0000–U+E007F) hide ASCII in plain sight: a high surrogate U+DB40 and a low
 * one from U+DC00 to U+DC7F.
 */
function isTagPair(high: number, low: number | undefined): boolean {
  return high === 0xdb40 && low !== undefined && (low & 0xff80) === 0xdc00;
}

/** The text as it is, invisible characters dropped. */
export function rawView(text: string): View {
  const hidden = invisibleTable();
  const view = new View(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (i + 1 < text.length && isTagPair(code, text.charCodeAt(i + 1))) {
      view.absorb(i, i + 2);
      i += 1;
    } else if (hidden[code]) view.absorb(i, i + 1);
    else view.push(code, i, i + 1);
  }
  return view;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(codes: Uint16Array, at: number, count: number, length: number): number {
  if (at + count > length) return -1;
  let value = 0;
  for (let i = 0; i < count; i += 1) {
    const digit = hexValue(codes[at + i] ?? 0);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** One decoded escape: its character (or -1 for one that stands for nothing visible) and length. */
type Escape = readonly [code: number, length: number] | null;

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  '"': 34,
  "'": 39,
  '/': 47,
  '\\': 92,
  '`': 96,
  // `\b`, `\f`, `\n`, `\r`, `\t`, `\v`, `\0`: controls, which show nothing.
  ...Object.fromEntries([...'bfnrtv0'].map((escape) => [escape, -1])),
};

/** `\u{X…}` at `at` (its `{` at `at + 2`), up to 6 hex digits for a code unit. */
function braceEscape(codes: Uint16Array, at: number, length: number): Escape {
  let value = 0;
  for (let i = at + 3; i < Math.min(length, at + 10); i += 1) {
    if (codes[i] === 0x7d /* } */)
      return i > at + 3 && value <= 0xffff ? [value, i - at + 1] : null;
    const digit = hexValue(codes[i] ?? 0);
    if (digit < 0) return null;
    value = value * 16 + digit;
  }
  return null;
}

/** `\uXXXX`, `\u{X…}`, `\xXX`, `\/` and friends (JSON and JavaScript string escapes). */
function backslashEscape(codes: Uint16Array, at: number, length: number): Escape {
  const next = codes[at + 1];
  if (next === undefined || at + 1 >= length) return null;
  if (next === 0x75 /* u */) {
    const value = hexAt(codes, at + 2, 4, length);
    if (value >= 0) return [value, 6];
    return codes[at + 2] === 0x7b /* { */ ? braceEscape(codes, at, length) : null;
  }
  if (next === 0x78 /* x */) {
    const value = hexAt(codes, at + 2, 2, length);
    return value >= 0 ? [value, 4] : null;
  }
  const simple = SIMPLE_ESCAPES[String.fromCharCode(next)];
  return simple === undefined ? null : [simple, 2];
}

/** `&#115;`, `&#x73;`, `&amp;` (the semicolon is optional after a number, as browsers read it). */
function entityEscape(codes: Uint16Array, at: number, length: number): Escape {
  if (codes[at + 1] === 0x23 /* # */) {
    const hex = ((codes[at + 2] ?? 0) | 0x20) === 0x78; /* x */
    let i = at + (hex ? 3 : 2);
    let value = 0;
    const first = i;
    for (; i < length && i < first + 8; i += 1) {
      const digit = hexValue(codes[i] ?? 0);
      if (digit < 0 || (!hex && digit > 9)) break;
      value = value * (hex ? 16 : 10) + digit;
    }
    if (i === first || value > 0xffff) return null;
    return [value, i - at + (codes[i] === 0x3b /* ; */ ? 1 : 0)];
  }
  let i = at + 1;
  let name = '';
  for (; i < length && i < at + 20; i += 1) {
    const code = codes[i] ?? 0;
    if (code === 0x3b) break;
    if (!((code | 0x20) >= 97 && (code | 0x20) <= 122)) return null;
    name += String.fromCharCode(code);
  }
  if (codes[i] !== 0x3b || name.length === 0) return null;
  // Any other name (`&nbsp;`, `&ensp;`, `&hellip;`) stands for no character of a key: between
  // its letters it is a separator, as an invisible character is.
  return [NAMED.get(name) ?? -1, i - at + 1];
}

/** `%XX` for a byte (both cases of hex). */
function percentEscape(codes: Uint16Array, at: number, length: number): Escape {
  const value = hexAt(codes, at + 1, 2, length);
  return value >= 0 ? [value, 3] : null;
}

/** `U+200B`, `U+E0041`: how the CLI shows a character it does not print (terminalSafe). */
function codePointEscape(codes: Uint16Array, at: number, length: number): Escape {
  if (codes[at + 1] !== 0x2b /* + */) return null;
  const unit = hexAt(codes, at + 2, 4, length);
  if (unit >= 0 && invisibleTable()[unit]) return [unit, 6];
  const tag = hexAt(codes, at + 2, 5, length);
  return tag >= 0xe0000 && tag <= 0xe007f ? [-1, 7] : null;
}

function escapeAt(codes: Uint16Array, at: number, length: number): Escape {
  switch (codes[at]) {
    case 0x55 /* U */:
      return codePointEscape(codes, at, length);
    case 0x5c /* \ */:
      return backslashEscape(codes, at, length);
    case 0x26 /* & */:
      return entityEscape(codes, at, length);
    case 0x25 /* % */:
      return percentEscape(codes, at, length);
    default:
      return null;
  }
}

/**
 * Where in the original the view's characters `[at, at + size)` begin, counting only those after
 * the last gap between them. In the joined JSON values two neighbours may come from two strings
 * (`"…&#x6","1;…"`): an escape or a byte made across that gap maps to its part after the gap, so
 * the JSON between the strings is never scrubbed (the part before holds less than a character).
 */
function startAfterGaps(view: View, at: number, size: number): number {
  let start = view.from[at] ?? 0;
  for (let i = at + 1; i < at + size; i += 1) if (!view.follows(i)) start = view.from[i] ?? 0;
  return start;
}

/** One pass: every escape replaced by its character, invisible characters dropped. */
function unescapeOnce(source: View): View {
  const hidden = invisibleTable();
  const { codes, length } = source;
  const view = new View(length);
  for (let i = 0; i < length; i += 1) {
    const tag = i + 1 < length && isTagPair(codes[i] ?? 0, codes[i + 1]);
    const [code, size] = escapeAt(codes, i, length) ?? [codes[i] ?? 0, tag ? 2 : 1];
    const start = startAfterGaps(source, i, size);
    const end = source.to[i + size - 1] ?? 0;
    const reach = source.reach[i + size - 1] ?? end;
    if (tag || code < 0 || hidden[code]) view.absorb(start, reach);
    else view.push(code, start, end, reach);
    i += size - 1;
  }
  return view;
}

/**
 * Escapes undone until nothing changes (at most three rounds: `%255C` → `%5C` → `\` …), so an
 * escape of an escape is read too.
 */
export function unescaped(source: View): View {
  let current = source;
  for (let round = 0; round < 3; round += 1) {
    const next = unescapeOnce(current);
    if (next.length === current.length) return next;
    current = next;
  }
  return current;
}

/** In a digit table: a character read through between two digits (see {@link digitTable}). */
const SEPARATOR = -1;
/** In a digit table: a character that ends a run of digits. */
const NO_DIGIT = -2;

const digitTables = new Map<'base64' | 'hex', Int8Array>();

/**
 * Per UTF-16 code unit, what it is in a run of `encoding`'s digits: its value (base64 and
 * base64url share one table: `+`/`-` are 62, `/`/`_` are 63), {@link SEPARATOR} or
 * {@link NO_DIGIT}. Separators are what is written between digits to make them readable, read
 * through as a dropped character is: whitespace of every kind (JavaScript's `\s`: spaces, tabs,
 * CR/LF as MIME wraps base64 at 76 columns and PEM at 64, U+2028/2029, no-break and wide spaces),
 * `:` (`de:ad:be:ef`), and between hex digits `-` (in base64 it is base64url's digit). One lookup
 * per character; made on first use (a pass over the BMP, some ms), as {@link invisibleTable} is.
 */
function digitTable(encoding: 'base64' | 'hex'): Int8Array {
  const known = digitTables.get(encoding);
  if (known) return known;
  const table = new Int8Array(0x10000).fill(NO_DIGIT);
  for (let code = 0; code < 0x10000; code += 1)
    if (/[\s:]/.test(String.fromCharCode(code))) table[code] = SEPARATOR;
  const alphabet =
    encoding === 'hex'
      ? '0123456789abcdefABCDEF'
      : 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i += 1) table[alphabet.charCodeAt(i)] = i;
  if (encoding === 'hex') {
    for (let i = 16; i < 22; i += 1) table[alphabet.charCodeAt(i)] = i - 6;
    table[0x2d] = SEPARATOR;
  } else {
    table[0x2d] = 62;
    table[0x5f] = 63;
  }
  digitTables.set(encoding, table);
  return table;
}

/**
 * Decodes every run of base64 (or hex) digits in `source` as bytes, starting `alignment` digits
 * into the run: text echoed inside a longer blob starts at any of 4 (or 2) positions of a group.
 * A separator between digits ({@link digitTable}) is read through, whatever the group it
 * splits: the run goes on after it, and a byte's digits on its two sides are one byte. Each byte
 * maps to the digits it was made of.
 */
export function decodeBytes(source: View, encoding: 'base64' | 'hex', alignment: number): View {
  const bitsPerDigit = encoding === 'hex' ? 4 : 6;
  const view = new View(Math.ceil(source.length * 0.75));
  const { codes, length } = source;
  const digits = digitTable(encoding);
  let inRun = 0;
  let bits = 0;
  let count = 0;
  let byteFrom = 0;
  let lastDigit = 0;
  for (let i = 0; i < length; i += 1) {
    const digit = digits[codes[i] ?? 0] ?? NO_DIGIT;
    if (digit < 0) {
      // Between the key's bytes it is part of the echo; after its last one it is not.
      if (digit === SEPARATOR) view.absorb(source.from[i] ?? 0, source.reach[i] ?? 0);
      else {
        inRun = 0;
        count = 0;
        bits = 0;
      }
      continue;
    }
    inRun += 1;
    if (inRun <= alignment) continue;
    // A byte whose digits straddle a gap (two JSON values) maps to the digits after it only,
    // never to a separator that begins the second value.
    const previous = source.from[lastDigit] ?? 0;
    if (count === 0) byteFrom = source.from[i] ?? 0;
    else if (lastDigit === i - 1 && source.follows(i)) byteFrom = Math.max(byteFrom, previous);
    else if (startAfterGaps(source, lastDigit, i - lastDigit + 1) > previous)
      byteFrom = source.from[i] ?? 0;
    else byteFrom = Math.max(byteFrom, previous);
    lastDigit = i;
    bits = ((bits << bitsPerDigit) | digit) & 0xffff;
    count += bitsPerDigit;
    if (count >= 8) {
      count -= 8;
      const [byte, to] = [(bits >> count) & 0xff, source.to[i] ?? 0];
      // A NUL (as between UTF-16's letters) is dropped, as an invisible character is.
      if (byte === 0) view.absorb(byteFrom, source.reach[i] ?? to);
      else view.push(byte, byteFrom, to, source.reach[i] ?? to);
      // Bits left over: the next byte starts in this digit (else at the next one, above).
      if (count > 0) byteFrom = source.from[i] ?? 0;
    }
  }
  return view;
}

/**
 * The JSON string values of `text` (not the names) joined in order, read lexically (no parse, so
 * depth and broken syntax do not matter): a key split across two fields is whole again here.
 * `null` when there are fewer than two values.
 */
export function joinedStringValues(text: string): View | null {
  const view = new View(Math.min(text.length, 1 << 16));
  let values = 0;
  for (let i = text.indexOf('"'); i !== -1 && i < text.length; i = text.indexOf('"', i + 1)) {
    let end = i + 1;
    while (end < text.length && text.charCodeAt(end) !== 0x22)
      end += text.charCodeAt(end) === 0x5c ? 2 : 1;
    let after = end + 1;
    while (after < text.length && /\s/.test(text.charAt(after))) after += 1;
    if (text[after] !== ':') {
      values += 1;
      // Invisible characters stay: unescaped() drops them, as from any other view.
      for (let k = i + 1; k < Math.min(end, text.length); k += 1)
        view.push(text.charCodeAt(k), k, k + 1);
    }
    i = end;
  }
  return values >= 2 ? view : null;
}
