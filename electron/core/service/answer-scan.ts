/**
 * The structural reader of a service answer: it reads the body's bytes as they arrive, once,
 * before anything is parsed, and keeps a bounded copy of it (the skeleton) for `JSON.parse`, the
 * profile's reading and the key's search. What it bounds is the structure, not only the bytes:
 *
 * - the skeleton (everything but the inline payloads) is at most the usual answer limit;
 * - nesting is at most {@link MAX_ANSWER_DEPTH} levels, and a list at most
 *   {@link MAX_ANSWER_ENTRIES} entries;
 * - where the answer may carry images inline, a string value that grows past
 *   {@link INLINE_MIN_CHARS} while it still looks like one (a `data:` URL, or base64 only) is
 *   taken out: decoded by the strict decoder as it arrives (inline-stream.ts), its text never
 *   kept, and a placeholder left in its place (inline-taken.ts).
 *
 * It refuses, as soon as it can tell, an answer past any bound (the caller stops reading it).
 * It does not check JSON's grammar outside strings: the skeleton is JSON exactly when the answer
 * is (a string is replaced by a string, and a taken string's escapes are checked here), so
 * `JSON.parse` of the skeleton says whether the answer was.
 */
import { MAX_ANSWER_DEPTH, MAX_ANSWER_ENTRIES, MAX_TAKEN_PAYLOADS } from './answer-limits';
import { AnswerText } from './answer-text';
import type { TakenPayload, TakenPayloads } from './inline-taken';
import { StringReader, type StringEnd } from './string-reader';

/** Why an answer was refused by its structure. */
export type ScanFault = 'tooLarge' | 'tooDeep' | 'tooManyEntries' | 'malformed';

export interface ScanLimits {
  /** The most the skeleton may hold, in bytes (the usual answer limit). */
  readonly maxBytes: number;
  /** Whether inline payloads are taken out (the answer a profile says may carry them). */
  readonly takeOut: boolean;
  /** The cap of one decoded inline image. */
  readonly maxInlineBytes: number;
  /** The answer's random nonce, which its placeholders name. */
  readonly nonce: string;
  /** The most entries of one list; default {@link MAX_ANSWER_ENTRIES}. */
  readonly maxEntries?: number;
}

/** A read answer: its skeleton, and the payloads taken out of it. */
export interface Scanned {
  readonly text: string;
  readonly taken: TakenPayloads;
}

const OBJECT = 1;
const ARRAY = 2;
const QUOTE = 0x22;
/** 1 for the bytes that open or close a string, object or list, or separate their parts. */
const PUNCTUATION = new Uint8Array(256);
for (const char of '"{}[]:,') PUNCTUATION[char.charCodeAt(0)] = 1;

export class AnswerScan {
  readonly #limits: ScanLimits;
  readonly #text: AnswerText;
  readonly #frames = new Uint8Array(MAX_ANSWER_DEPTH + 1);
  /** Per object level: the next string is a member's name. Per list level: its commas. */
  readonly #state = new Int32Array(MAX_ANSWER_DEPTH + 1);
  #depth = 0;
  /** The string being read, if any. */
  #string: StringReader | null = null;
  readonly #payloads: TakenPayload[] = [];
  #fault: ScanFault | null = null;

  constructor(limits: ScanLimits) {
    this.#limits = limits;
    this.#text = new AnswerText(limits.maxBytes);
  }

  /** Reads the next bytes; the fault that refuses the answer, once there is one. */
  push(chunk: Uint8Array): ScanFault | null {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let at = 0;
    while (at < bytes.length && this.#fault === null) {
      at = this.#string ? this.#inString(bytes, at) : this.#structure(bytes, at);
      if (this.#text.overflowing()) this.#fault = 'tooLarge';
    }
    return this.#fault;
  }

  /** The answer once it all arrived: its skeleton and payloads, or the fault that refuses it. */
  end(): Scanned | ScanFault {
    if (this.#fault !== null) return this.#fault;
    // A string still open is JSON's fault, found by JSON.parse; a payload's cannot be, as it is
    // not in the skeleton: close it as malformed.
    if (this.#string?.taken) return 'malformed';
    if (this.#text.overflowing()) return 'tooLarge';
    return {
      text: this.#text.finish(),
      taken: { nonce: this.#limits.nonce, payloads: this.#payloads },
    };
  }

  #inString(bytes: Buffer, at: number): number {
    const reader = this.#string;
    if (reader === null) return at;
    const read = reader.read(bytes, at);
    if (read.end !== null) this.#closeString(reader, read.end);
    return read.at;
  }

  #closeString(reader: StringReader, end: StringEnd): void {
    this.#string = null;
    if (end === 'malformed') {
      this.#fault = 'malformed';
      return;
    }
    const payload = reader.takenPayload();
    if (payload === null) return;
    this.#text.placeholder(this.#limits.nonce, this.#payloads.length);
    this.#payloads.push(payload);
  }

  /** Bytes outside strings, up to the next string's opening quote (included). */
  #structure(bytes: Buffer, from: number): number {
    let at = from;
    while (at < bytes.length) {
      const start = at;
      while (at < bytes.length && PUNCTUATION[bytes[at] ?? 0] === 0) at += 1;
      this.#text.run(bytes, start, at);
      if (at === bytes.length) return at;
      const byte = bytes[at] ?? 0;
      at += 1;
      this.#text.byte(byte);
      if (byte === QUOTE) {
        this.#openString();
        return at;
      }
      this.#fault = this.#punctuation(byte);
      if (this.#fault !== null) return at;
    }
    return at;
  }

  #openString(): void {
    const inObject = this.#frames[this.#depth] === OBJECT;
    const name = inObject && this.#state[this.#depth] === 1;
    const mayTake = !name && this.#limits.takeOut;
    const decoding = this.#payloads.length < MAX_TAKEN_PAYLOADS;
    this.#string = new StringReader(this.#text, {
      candidate: mayTake,
      decodeTaken: decoding,
      maxInlineBytes: this.#limits.maxInlineBytes,
    });
  }

  /** Follows nesting, names and list entries; the fault a bound found, if any. */
  #punctuation(byte: number): ScanFault | null {
    switch (byte) {
      case 0x7b: // {
        return this.#open(OBJECT);
      case 0x5b: // [
        return this.#open(ARRAY);
      case 0x7d: // }
      case 0x5d: // ]
        this.#depth = Math.max(0, this.#depth - 1);
        return null;
      case 0x3a: // :
        if (this.#frames[this.#depth] === OBJECT) this.#state[this.#depth] = 0;
        return null;
      case 0x2c: // ,
        return this.#comma();
      default:
        return null;
    }
  }

  #open(frame: number): ScanFault | null {
    if (this.#depth >= MAX_ANSWER_DEPTH) return 'tooDeep';
    this.#depth += 1;
    this.#frames[this.#depth] = frame;
    this.#state[this.#depth] = frame === OBJECT ? 1 : 0;
    return null;
  }

  #comma(): ScanFault | null {
    const depth = this.#depth;
    if (this.#frames[depth] === OBJECT) {
      this.#state[depth] = 1;
      return null;
    }
    if (this.#frames[depth] !== ARRAY) return null;
    const commas = (this.#state[depth] ?? 0) + 1;
    this.#state[depth] = commas;
    // n commas separate n + 1 entries.
    return commas + 1 > (this.#limits.maxEntries ?? MAX_ANSWER_ENTRIES) ? 'tooManyEntries' : null;
  }
}
