/**
 * The strict inline-image decoder of inline-image.ts, fed a character at a time as the answer
 * arrives (answer-scan.ts): a payload of tens of megabytes is decoded into its bytes and hashed
 * while it is read, and its text is never kept. It refuses exactly what `decodeDataUrl` and
 * `decodeBase64Image` refuse, for the same reason: the same header check, the standard alphabet
 * only, padding only at the end and to a whole quantum with zero bits left over, at most the cap
 * once decoded (a payload longer than the cap allows is refused for its length, whatever its
 * characters). Once refused, nothing more is decoded or kept; the characters are only counted.
 *
 * Characters are UTF-16 code units, as in the string `JSON.parse` would have made: the reader
 * passes each escape's unit and counts a raw UTF-8 character as the units it stands for.
 */
import { createHash, type Hash } from 'node:crypto';
import type { InlineImage } from '../../../shared/service/inline-token';
import {
  ALPHABET_INDEX,
  MAX_HEADER_CHARS,
  base64Length,
  dataUrlHeaderFault,
  isEdgeSpace,
  type InlineReading,
  type InlineRefusal,
} from './inline-image';

/** Each ASCII code's place in the base64 alphabet, or -1. */
const ALPHABET = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET_INDEX.length; i += 1) ALPHABET[ALPHABET_INDEX.charCodeAt(i)] = i;

/** Whether ASCII `code` is a character of the base64 alphabet (padding aside). */
export function inAlphabet(code: number): boolean {
  return code < 128 && (ALPHABET[code] ?? -1) >= 0;
}

/** 1 for each byte that is a character of the base64 alphabet (for a reader's tight loops). */
export const ALPHABET_BYTES = new Uint8Array(256);
for (let i = 0; i < ALPHABET_INDEX.length; i += 1) ALPHABET_BYTES[ALPHABET_INDEX.charCodeAt(i)] = 1;

/** The next character outside the alphabet (a regular expression: searched natively). */
const NOT_ALPHABET = /[^A-Za-z0-9+/]/g;

const COMMA = 0x2c;
const PAD = 0x3d;
/** Decoded bytes are kept in memory reserved up to this, committed as they come. */
const FIRST_CAPACITY = 64 * 1024;

type Phase = 'lead' | 'header' | 'data';

/** A resizable ArrayBuffer (ES2024; Node 24 has it, the project's TypeScript library not yet). */
interface ResizableBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(length: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (
  length: number,
  options: { maxByteLength: number },
) => ResizableBuffer;

/** The bytes decoded so far, hashed as they are written. */
class DecodedBytes {
  readonly #buffer: ResizableBuffer;
  #size = 0;
  readonly #hash: Hash = createHash('sha256');

  constructor(maxBytes: number) {
    // A resizable buffer reserves the cap's address space and commits pages as it grows, so a
    // large image is neither over-allocated nor copied when it outgrows its first capacity.
    const reserve = Math.max(3, maxBytes + 3);
    this.#buffer = new ResizableArrayBuffer(Math.min(FIRST_CAPACITY, reserve), {
      maxByteLength: reserve,
    });
  }

  /** Decodes `quanta`, base64 text of whole quanta without padding, onto the end. */
  write(quanta: string): void {
    const needed = this.#size + (quanta.length / 4) * 3;
    if (needed > this.#buffer.byteLength) {
      const max = this.#buffer.maxByteLength;
      this.#buffer.resize(Math.min(max, Math.max(needed, this.#buffer.byteLength * 2)));
    }
    const view = Buffer.from(this.#buffer, this.#size, needed - this.#size);
    const written = view.write(quanta, 0, 'base64');
    this.#hash.update(view.subarray(0, written));
    this.#size += written;
  }

  /** The image: its bytes (over their own buffer, ready to be transferred) and their SHA-256. */
  finish(): InlineImage {
    this.#buffer.resize(this.#size);
    return { sha256: this.#hash.digest('hex'), bytes: new Uint8Array(this.#buffer, 0, this.#size) };
  }
}

/** One inline payload's decoder: `unit` and `run` feed it, `end` says what it was. */
export class InlineDecoder {
  readonly form: 'dataUrl' | 'base64';
  readonly #maxBytes: number;
  readonly #maxChars: number;
  #phase: Phase;
  /** The header of a data URL so far (at most MAX_HEADER_CHARS + 1 units). */
  #header = '';
  /** A refusal nothing after it changes (the header's). */
  #final: InlineRefusal | null = null;
  /** Units of the data (padding and whitespace inside it included). */
  #chars = 0;
  /** Whitespace after the data, dropped if nothing but whitespace follows (a data URL's trim). */
  #trail = 0;
  #pads = 0;
  /** A character outside the alphabet, or padding in the middle. */
  #alphabet = false;
  /** The last data character's value, for the zero bits a padded quantum leaves over. */
  #last = 0;
  /** Data characters not yet decoded (under one quantum), and the run they begin. */
  #carry = '';
  #decoded: DecodedBytes | null;

  constructor(form: 'dataUrl' | 'base64', maxBytes: number) {
    this.form = form;
    this.#maxBytes = maxBytes;
    this.#maxChars = base64Length(maxBytes);
    this.#phase = form === 'dataUrl' ? 'lead' : 'data';
    this.#decoded = new DecodedBytes(maxBytes);
  }

  /** One UTF-16 unit of the payload (an escape's, or one of a raw non-ASCII character's). */
  unit(code: number): void {
    if (this.#final !== null) return;
    if (this.#phase === 'data') this.#dataUnit(code);
    else this.#headerUnit(code);
  }

  /** Whether its data is being decoded (past a data URL's header, nothing refused yet). */
  get decoding(): boolean {
    return this.#phase === 'data' && this.#final === null && !this.#alphabet;
  }

  /** Characters of the alphabet alone (the caller checked each), while {@link decoding}. */
  alphabet(chars: string): void {
    if (chars.length > 0) this.#alphabetRun(chars);
  }

  /**
   * ASCII characters (no control character), as a string: runs of the alphabet are decoded in
   * one go, any other character on its own, and nothing but a count once the payload is refused.
   */
  text(chars: string): void {
    let at = 0;
    while (at < chars.length && this.#final === null) {
      if (this.#phase !== 'data') {
        this.#headerUnit(chars.charCodeAt(at));
        at += 1;
      } else if (this.#alphabet) {
        this.#count(at === 0 ? chars : chars.slice(at));
        return;
      } else at = this.#dataText(chars, at);
    }
  }

  /** Decodes the run of the alphabet at `at` and takes the character after it; where it ended. */
  #dataText(chars: string, at: number): number {
    NOT_ALPHABET.lastIndex = at;
    const bad = NOT_ALPHABET.exec(chars)?.index ?? chars.length;
    if (bad > at)
      this.#alphabetRun(at === 0 && bad === chars.length ? chars : chars.slice(at, bad));
    if (bad === chars.length) return bad;
    let end = bad;
    // Whitespace around a data URL's data is trimmed: a run of it is only counted.
    if (this.form === 'dataUrl')
      while (end < chars.length && isEdgeSpace(chars.charCodeAt(end))) end += 1;
    if (end > bad) {
      this.#trail += end - bad;
      return end;
    }
    this.#dataUnit(chars.charCodeAt(bad));
    return bad + 1;
  }

  /** What the payload was: its image, or why it is refused. */
  end(): InlineReading {
    const why = this.#refusal();
    const decoded = this.#decoded;
    this.#decoded = null;
    if (why !== null || decoded === null) return { ok: false, why: why ?? 'alphabet' };
    if (this.#carry.length > 0) decoded.write(this.#lastQuantum());
    return { ok: true, image: decoded.finish() };
  }

  #refusal(): InlineRefusal | null {
    if (this.#final !== null) return this.#final;
    if (this.#phase !== 'data') return 'notBase64';
    if (this.#chars === 0) return 'empty';
    if (this.#chars > this.#maxChars) return 'tooBig';
    if (this.#alphabet) return 'alphabet';
    if (this.#chars % 4 !== 0 || !this.#zeroTail()) return 'padding';
    if ((this.#chars / 4) * 3 - this.#pads > this.#maxBytes) return 'tooBig';
    return null;
  }

  #zeroTail(): boolean {
    if (this.#pads === 0) return true;
    return (this.#last & (this.#pads === 2 ? 0b1111 : 0b11)) === 0;
  }

  /** The carried characters of the last quantum, padded so the decoder takes them. */
  #lastQuantum(): string {
    return this.#carry.padEnd(4, '=');
  }

  #headerUnit(code: number): void {
    if (this.#phase === 'lead') {
      if (isEdgeSpace(code)) return;
      this.#phase = 'header';
    }
    if (code === COMMA) {
      this.#final = dataUrlHeaderFault(this.#header);
      this.#phase = 'data';
      if (this.#final !== null) this.#decoded = null;
      return;
    }
    this.#header += String.fromCharCode(code);
    // The comma must come within the first MAX_HEADER_CHARS + 1 characters.
    if (this.#header.length > MAX_HEADER_CHARS) this.#refuse('notBase64');
  }

  #refuse(why: InlineRefusal): void {
    this.#final = why;
    this.#decoded = null;
  }

  /** A data character that is not part of a run of the alphabet (or is, one at a time). */
  #dataUnit(code: number): void {
    if (this.form === 'dataUrl' && isEdgeSpace(code)) {
      this.#trail += 1;
      return;
    }
    this.#settleTrail();
    this.#chars += 1;
    if (code === PAD) {
      this.#pads += 1;
      if (this.#pads > 2) this.#fault();
      return;
    }
    const value = code < 128 ? (ALPHABET[code] ?? -1) : -1;
    if (value < 0 || this.#pads > 0) {
      this.#fault();
      return;
    }
    this.#last = value;
    this.#keep(String.fromCharCode(code));
  }

  /** Whitespace followed by more data was inside it, not around it: not base64. */
  #settleTrail(): void {
    if (this.#trail === 0) return;
    this.#chars += this.#trail;
    this.#trail = 0;
    this.#fault();
  }

  #fault(): void {
    this.#alphabet = true;
    this.#decoded = null;
    this.#carry = '';
  }

  #alphabetRun(chars: string): void {
    this.#settleTrail();
    this.#chars += chars.length;
    if (this.#pads > 0) {
      this.#fault();
      return;
    }
    this.#last = ALPHABET[chars.charCodeAt(chars.length - 1)] ?? 0;
    this.#keep(chars);
  }

  /**
   * Characters of a payload already refused for its characters: only counted, as its length may
   * still refuse it as too big (a data URL's trailing whitespace is not part of its length).
   */
  #count(chars: string): void {
    if (this.form === 'base64') {
      this.#chars += chars.length;
      return;
    }
    let end = chars.length;
    while (end > 0 && isEdgeSpace(chars.charCodeAt(end - 1))) end -= 1;
    if (end === 0) {
      this.#trail += chars.length;
      return;
    }
    this.#chars += this.#trail + end;
    this.#trail = chars.length - end;
  }

  /** Decodes the whole quanta of the carried characters and `text`, carrying the rest. */
  #keep(text: string): void {
    if (this.#decoded === null) return;
    if (this.#chars > this.#maxChars) {
      this.#decoded = null;
      this.#carry = '';
      return;
    }
    const all = this.#carry + text;
    const whole = all.length - (all.length % 4);
    if (whole > 0) this.#decoded.write(all.slice(0, whole));
    this.#carry = all.slice(whole);
  }
}
