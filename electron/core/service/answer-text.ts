/**
 * The skeleton of an answer as answer-scan.ts writes it: its bytes, bounded by the usual answer
 * limit. A string that may yet be taken out (a candidate, at most INLINE_MIN_CHARS long before it
 * is decided) is not counted against the limit while it is undecided.
 */
import { INLINE_MIN_CHARS } from './answer-limits';
import { placeholder } from './inline-taken';

const FIRST_CAPACITY = 16 * 1024;
const encoder = new TextEncoder();

export class AnswerText {
  readonly #max: number;
  /** What may be written: the limit, a candidate still undecided, and a placeholder. */
  readonly #capacity: number;
  #bytes: Uint8Array;
  #length = 0;
  #overflowed = false;
  /** Where the undecided candidate string's content starts, or -1. */
  #pendingFrom = -1;

  constructor(maxBytes: number) {
    this.#max = maxBytes;
    this.#capacity = maxBytes + INLINE_MIN_CHARS + 256;
    this.#bytes = new Uint8Array(Math.min(FIRST_CAPACITY, this.#capacity));
  }

  get length(): number {
    return this.#length;
  }

  /** The bytes written so far (a view: valid until the next write). */
  get bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  /** Past the limit (without an undecided candidate): the answer is too large. */
  overflowing(): boolean {
    if (this.#overflowed) return true;
    const pending = this.#pendingFrom < 0 ? 0 : this.#length - this.#pendingFrom;
    return this.#length - pending > this.#max;
  }

  byte(value: number): void {
    if (!this.#room(1)) return;
    this.#bytes[this.#length] = value;
    this.#length += 1;
  }

  run(source: Uint8Array, from: number, to: number): void {
    if (!this.#room(to - from)) return;
    this.#bytes.set(source.subarray(from, to), this.#length);
    this.#length += to - from;
  }

  /** A candidate string's content starts here (`-1`: it was decided). */
  pending(from: number): void {
    this.#pendingFrom = from;
  }

  /** Drops what was written from `length` on (a candidate that was taken out, and its quote). */
  truncate(length: number): void {
    this.#length = Math.min(this.#length, length);
    this.#pendingFrom = -1;
  }

  /** Writes the placeholder of payload `index`, as a JSON string. */
  placeholder(nonce: string, index: number): void {
    const text = encoder.encode(JSON.stringify(placeholder(nonce, index)));
    this.run(text, 0, text.length);
  }

  /** The skeleton as text (invalid UTF-8 replaced, as the body's text always was). */
  finish(): string {
    return new TextDecoder('utf-8').decode(this.bytes);
  }

  #room(count: number): boolean {
    const needed = this.#length + count;
    if (needed > this.#capacity) {
      this.#overflowed = true;
      return false;
    }
    if (needed > this.#bytes.length) {
      const grown = new Uint8Array(
        Math.min(this.#capacity, Math.max(needed, this.#bytes.length * 2)),
      );
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    return true;
  }
}
