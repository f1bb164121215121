/**
 * One JSON string of an answer, read by answer-scan.ts from just after its opening quote to its
 * closing one, in whichever of three ways it turns out to be:
 *
 * - copied: a member's name, or a value that does not look like an inline payload, goes to the
 *   skeleton as it is (JSON.parse judges it there);
 * - a candidate: a value that may be an inline payload is copied while it is shorter than
 *   INLINE_MIN_CHARS and watched (answer-likeness.ts): once that long and still like one, it is
 *   taken; once unlike one, it is copied;
 * - taken: its characters, escapes undone, go to the strict decoder (inline-stream.ts) and none
 *   to the skeleton; its escapes and control characters are checked here, as JSON.parse would.
 *
 * Runs of ordinary characters are found with a table or `indexOf` and handled in one go; only
 * escapes, quotes and characters outside the run's kind are looked at one at a time.
 */
import { INLINE_MIN_CHARS } from './answer-limits';
import { Likeness } from './answer-likeness';
import type { AnswerText } from './answer-text';
import type { TakenPayload } from './inline-taken';
import { ALPHABET_BYTES, InlineDecoder } from './inline-stream';
import { EscapeReader, NONE, MALFORMED, OTHER } from './escape-reader';

/** How a string ended: at its closing quote, or at something JSON does not allow in a string. */
export type StringEnd = 'closed' | 'malformed';

/** Where reading stopped, and how the string ended if it did. */
export interface StringRead {
  readonly at: number;
  readonly end: StringEnd | null;
}

export interface StringOptions {
  /** A value (not a name) of an answer that may carry images inline. */
  readonly candidate: boolean;
  /** Decode it if taken (false: one payload too many, refused unread). */
  readonly decodeTaken: boolean;
  readonly maxInlineBytes: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** 1 for ASCII characters that need nothing done: not a quote, a backslash or a control. */
const PLAIN_BYTES = new Uint8Array(256);
for (let byte = 0x20; byte < 0x80; byte += 1) PLAIN_BYTES[byte] = 1;
PLAIN_BYTES[QUOTE] = 0;
PLAIN_BYTES[BACKSLASH] = 0;

/** 1 for the characters a base64 payload is made of (its alphabet and padding). */
const BASE64_BYTES = ALPHABET_BYTES.slice();
BASE64_BYTES[0x3d] = 1;

/** Where the next run of bytes marked in `table` ends, from `at` (at most `limit`). */
function runEnd(bytes: Buffer, at: number, table: Uint8Array, limit = bytes.length): number {
  const stop = Math.min(limit, bytes.length);
  let end = at;
  while (end < stop && table[bytes[end] ?? 0] === 1) end += 1;
  return end;
}

export class StringReader {
  readonly #text: AnswerText;
  readonly #options: StringOptions;
  /** Where the string's content starts in the skeleton. */
  readonly #start: number;
  #mode: 'copy' | 'candidate' | 'taken';
  readonly #escapes = new EscapeReader();
  readonly #likeness = new Likeness();
  #form: 'dataUrl' | 'base64' = 'base64';
  #decoder: InlineDecoder | null = null;

  constructor(text: AnswerText, options: StringOptions) {
    this.#text = text;
    this.#options = options;
    this.#start = text.length;
    this.#mode = options.candidate ? 'candidate' : 'copy';
    if (options.candidate) text.pending(this.#start);
  }

  /** Whether it was taken out of the skeleton. */
  get taken(): boolean {
    return this.#mode === 'taken';
  }

  /** Reads from `bytes[at]` on. */
  read(bytes: Buffer, at: number): StringRead {
    if (this.#mode === 'copy') return this.#copy(bytes, at);
    if (this.#mode === 'candidate') return this.#candidate(bytes, at);
    return this.#taken(bytes, at);
  }

  /** The payload it was, once closed: its form and what the decoder made of it. */
  takenPayload(): TakenPayload | null {
    if (this.#mode !== 'taken') return null;
    return { form: this.#form, reading: this.#decoder?.end() ?? null };
  }

  #copy(bytes: Buffer, from: number): StringRead {
    let at = from;
    for (;;) {
      if (this.#escapes.skipping() && at < bytes.length) {
        this.#escapes.skipped();
        at += 1;
      }
      const quote = bytes.indexOf(QUOTE, at);
      const slash = bytes.indexOf(BACKSLASH, at);
      if (slash !== -1 && (quote === -1 || slash < quote)) {
        this.#escapes.skipNext();
        at = slash + 1;
        continue;
      }
      const end = quote === -1 ? bytes.length : quote + 1;
      this.#text.run(bytes, from, end);
      return { at: end, end: quote === -1 ? null : 'closed' };
    }
  }

  #candidate(bytes: Buffer, from: number): StringRead {
    let at = from;
    while (at < bytes.length && this.#mode === 'candidate') {
      // No further than the length that decides it, so a candidate never outgrows that.
      const room = Math.max(1, INLINE_MIN_CHARS - (this.#text.length - this.#start));
      const end = this.#escapes.idle() ? runEnd(bytes, at, BASE64_BYTES, at + room) : at;
      if (end > at) {
        this.#text.run(bytes, at, end);
        this.#likeness.base64(bytes.toString('latin1', at, Math.min(end, at + 8)), end - at);
        at = end;
      } else {
        const byte = bytes[at] ?? 0;
        at += 1;
        this.#text.byte(byte);
        const unit = this.#escapes.unit(byte);
        if (unit === QUOTE_CLOSE) {
          this.#text.pending(-1);
          return { at, end: 'closed' };
        }
        if (unit === MALFORMED) return { at, end: 'malformed' };
        if (unit !== NONE) this.#likeness.unit(unit);
      }
      this.#decide();
    }
    if (at === bytes.length) return { at, end: null };
    return this.read(bytes, at);
  }

  /** Copied once unlike a payload; taken once long enough and still like one. */
  #decide(): void {
    const form = this.#likeness.form();
    const long = this.#text.length - this.#start >= INLINE_MIN_CHARS;
    if (!this.#likeness.alive() || (long && form === null)) {
      this.#mode = 'copy';
      this.#text.pending(-1);
    } else if (long && form !== null && this.#escapes.idle()) this.#take(form);
  }

  /** Moves what was copied of it to the decoder and takes it out of the skeleton. */
  #take(form: 'dataUrl' | 'base64'): void {
    this.#mode = 'taken';
    this.#form = form;
    if (this.#options.decodeTaken) {
      this.#decoder = new InlineDecoder(form, this.#options.maxInlineBytes);
    }
    const copied = Buffer.from(this.#text.bytes.subarray(this.#start));
    // Drop the opening quote too: the placeholder is written as a whole string.
    this.#text.truncate(this.#start - 1);
    this.#taken(copied, 0);
  }

  #taken(bytes: Buffer, from: number): StringRead {
    let at = from;
    while (at < bytes.length) {
      if (this.#escapes.idle()) at = this.#takenRun(bytes, at);
      if (at === bytes.length) break;
      const unit = this.#escapes.unit(bytes[at] ?? 0);
      at += 1;
      if (unit === QUOTE_CLOSE) return { at, end: 'closed' };
      if (unit === MALFORMED) return { at, end: 'malformed' };
      if (unit !== NONE) this.#feed(unit);
    }
    return { at, end: null };
  }

  /** The run at `at` of what the decoder takes in one go; where it ends. */
  #takenRun(bytes: Buffer, at: number): number {
    const decoder = this.#decoder;
    if (decoder?.decoding) {
      const end = runEnd(bytes, at, ALPHABET_BYTES);
      if (end > at) decoder.alphabet(bytes.toString('latin1', at, end));
      return end;
    }
    const end = runEnd(bytes, at, PLAIN_BYTES);
    if (end > at) decoder?.text(bytes.toString('latin1', at, end));
    return end;
  }

  /** A unit for the decoder: a raw non-ASCII character of four UTF-8 bytes stands for two. */
  #feed(unit: number): void {
    this.#decoder?.unit(unit === OTHER_PAIR ? OTHER : unit);
    if (unit === OTHER_PAIR) this.#decoder?.unit(OTHER);
  }
}

/** What {@link EscapeReader.unit} answers for a closing quote, and for a four-byte character. */
const QUOTE_CLOSE = EscapeReader.CLOSE;
const OTHER_PAIR = EscapeReader.OTHER_PAIR;
