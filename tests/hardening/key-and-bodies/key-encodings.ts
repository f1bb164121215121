/**
 * The test's own encoders of the key (Buffer and hand-written loops, nothing from the product's
 * key-echo.ts) and an independent scanner built from them: the forms a leak of any 12
 * consecutive characters of the key would take, looked for with plain substring search.
 */
import fc from 'fast-check';
import { heldKeyScrubberOrNone } from '../../../electron/core/secrets';
import { TASK_ID_CONTROL } from '../../../shared/domain/limits';

/** Consecutive characters of the key that count as a leak. */
export const LEAK_RUN = 12;

const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';

/** Realistic keys: 20–100 characters of [A-Za-z0-9_-], half of them in the `sk-` form. */
export const keyArb = fc
  .tuple(
    fc.boolean(),
    fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 20, maxLength: 100 }),
  )
  .map(([sk, body]) => (sk ? `sk-${body}` : body));

const bytes = (text: string) => Buffer.from(text, 'utf8');
const pad = (prefix: number, text: string) =>
  Buffer.concat([Buffer.alloc(prefix, 0x41), bytes(text)]);
const percent = (text: string, upper: boolean) =>
  [...bytes(text)]
    .map((b) => `%${b.toString(16).padStart(2, '0')}`)
    .map((form) => (upper ? form.toUpperCase() : form))
    .join('');

/** Each encoding a service may echo the key in. `shift` picks a base64 alignment or a padding. */
export const ENCODINGS: Readonly<Record<string, (text: string, shift: number) => string>> = {
  raw: (text) => text,
  upper: (text) => text.toUpperCase(),
  base64: (text, shift) => pad(shift % 3, text).toString('base64'),
  base64url: (text, shift) => pad(shift % 3, text).toString('base64url'),
  bearerBase64: (text, shift) => pad(shift % 3, `Bearer ${text}`).toString('base64'),
  bearerBase64url: (text, shift) => pad(shift % 3, `Bearer ${text}`).toString('base64url'),
  hexLower: (text) => bytes(text).toString('hex'),
  hexUpper: (text) => bytes(text).toString('hex').toUpperCase(),
  percentEveryByte: (text) => percent(text, false),
  percentEveryByteUpper: (text) => percent(text, true),
  percentOrdinary: (text) => encodeURIComponent(text),
  htmlDecimal: (text) => [...text].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  htmlHex: (text) => [...text].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
  htmlNamed: (text) => text.replace(/-/g, '&#45;').replace(/_/g, '&lowbar;'),
  utf16le: (text) => Buffer.from(text, 'utf16le').toString('latin1'),
  utf16be: (text) => Buffer.from(text, 'utf16le').swap16().toString('latin1'),
  jsonUnicodeEscapes: (text) =>
    [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  zeroWidth: (text, shift) =>
    [...text].join(['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'][shift % 6]),
};

export const ENCODING_NAMES = Object.keys(ENCODINGS);

/**
 * The encodings of `key` (shifted by `shift`) a task id may carry, as an argument or kept in a
 * library: an id holding a control, bidi, line-separator or invisible character (UTF-16's NULs, a
 * zero-width space) is refused by the task id rule (TASK_ID_CONTROL, shared/domain/limits.ts)
 * before any key check, on write and on read, so no library keeps one.
 */
export function keptIdEncodings(key: string, shift = 1): string[] {
  return ENCODING_NAMES.filter((name) => !TASK_ID_CONTROL.test(ENCODINGS[name]!(key, shift)));
}

/** The base64 characters fully made of `run`'s bytes, when it starts `lead` bytes into a group. */
function base64Core(run: string, lead: number, url: boolean): string {
  const encoded = pad(lead, run).toString(url ? 'base64url' : 'base64');
  const first = Math.ceil((lead * 8) / 6);
  const last = Math.floor(((lead + run.length) * 8) / 6);
  return encoded.slice(first, last);
}

/** Every form a run of the key could be stored in, matched case-insensitively where marked. */
function leakForms(run: string): { exact: string[]; folded: string[] } {
  const exact: string[] = [];
  for (const lead of [0, 1, 2])
    for (const url of [false, true]) exact.push(base64Core(run, lead, url));
  exact.push(Buffer.from(run, 'utf16le').toString('latin1'));
  exact.push(Buffer.from(run, 'utf16le').swap16().toString('latin1'));
  const folded = [
    run,
    // UTF-16's NUL bytes as an error's text is cleaned of them (cleanText: a control becomes a
    // space): the key's letters spaced out, still read at a glance.
    [...run].join(' '),
    bytes(run).toString('hex'),
    percent(run, false),
    encodeURIComponent(run),
    ENCODINGS['htmlDecimal']!(run, 0),
    ENCODINGS['htmlHex']!(run, 0),
    ENCODINGS['jsonUnicodeEscapes']!(run, 0),
  ].map((form) => form.toLowerCase());
  return { exact, folded };
}

/** Characters a leak could be padded with and still be read: dropped before searching. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;

/** Characters of a form looked up at each place of a text before the whole form is searched. */
const ANCHOR = 4;

/**
 * The first ANCHOR characters of `text` from `at`, hashed to one number, so a text is read once
 * without a string made at each place (two pieces that share a hash only cost a whole search).
 */
function anchorAt(text: string, at: number): number {
  const head = (text.charCodeAt(at) << 16) | text.charCodeAt(at + 1);
  const tail = (text.charCodeAt(at + 2) << 16) | text.charCodeAt(at + 3);
  return (head ^ Math.imul(tail, 0x9e3779b1)) >>> 0;
}

/** The anchors of `text` that are in `anchors`, read in one pass. */
function anchorsIn(text: string, anchors: ReadonlySet<number>): Set<number> {
  const seen = new Set<number>();
  for (let at = 0; at + ANCHOR <= text.length; at += 1) {
    const anchor = anchorAt(text, at);
    if (anchors.has(anchor)) seen.add(anchor);
  }
  return seen;
}

/**
 * A scanner for a key, or for several at once: `leaks(text)` lists the forms of the keys' runs
 * found in `text` (each key's, one after another). A key has up to 89 runs of 14 forms: searching
 * a text (a history database of hundreds of kB, read twice) once per form was a fifth of
 * key-echoes' time, so the text is read once for the forms' first characters, and only a form
 * whose start is there is searched for whole (a form found always has its start there: the same
 * list as searching every form). Several keys share that one read (key-echoes searches every
 * text for two: a scanner each read it twice).
 */
export function keyScanner(keys: string | readonly string[]): { leaks(text: string): string[] } {
  const runs: string[] = [];
  for (const key of typeof keys === 'string' ? [keys] : keys)
    for (let i = 0; i + LEAK_RUN <= key.length; i += 1) runs.push(key.slice(i, i + LEAK_RUN));
  const forms = runs.map(leakForms);
  const all = forms.flatMap(({ exact, folded }) => [...exact, ...folded]);
  if (all.some((form) => form.length < ANCHOR))
    throw new Error('a key form shorter than its anchor');
  const start = (form: string) => anchorAt(form, 0);
  const exactStarts = new Set(forms.flatMap(({ exact }) => exact.map(start)));
  const foldedStarts = new Set(forms.flatMap(({ folded }) => folded.map(start)));
  return {
    leaks(text) {
      const plain = text.replace(INVISIBLE, '');
      const lower = plain.toLowerCase();
      const inPlain = anchorsIn(plain, exactStarts);
      const inLower = anchorsIn(lower, foldedStarts);
      const found: string[] = [];
      for (const { exact, folded } of forms) {
        for (const form of exact)
          if (inPlain.has(start(form)) && plain.includes(form)) found.push(form);
        for (const form of folded)
          if (inLower.has(start(form)) && lower.includes(form)) found.push(form);
      }
      return found;
    },
  };
}

/** The product's scrubber for one held key (what a download or a copy runs with `key` in the store). */
export async function heldScrubberFor(
  key: string,
): Promise<NonNullable<Awaited<ReturnType<typeof heldKeyScrubberOrNone>>>> {
  const held = await heldKeyScrubberOrNone(() => Promise.resolve([key]));
  if (!held) throw new Error('the key is held: a scrubber is made');
  return held;
}

/**
 * The letters and digits of `text` as a person reads them: compatibility forms and accented
 * letters as their ASCII letter, HTML's named entities (`&nbsp;`) as the spaces they show.
 */
function readAsLetters(text: string): string {
  return text
    .replace(/&[a-z]+;/gi, ' ')
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();
}

/**
 * The runs of LEAK_RUN of `key`'s letters and digits found in `text` read as a person would: the key spelt
 * out (spelt-out-echoes.test.ts), with anything between its letters.
 */
export function speltLeaks(text: string, key: string): string[] {
  const letters = readAsLetters(key);
  const read = readAsLetters(text);
  const found: string[] = [];
  for (let i = 0; i + LEAK_RUN <= letters.length; i += 1)
    if (read.includes(letters.slice(i, i + LEAK_RUN))) found.push(letters.slice(i, i + LEAK_RUN));
  return found;
}
