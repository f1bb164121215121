/**
 * The characters of a JSON string one byte at a time, for string-reader.ts: escapes undone
 * (`\n`, `\/`, `\uXXXX`…, anything else malformed, as JSON.parse says), control characters
 * malformed, and a raw UTF-8 character counted as the UTF-16 units it stands for (its value is
 * never needed: no non-ASCII character belongs in an inline payload). A character cut short ends
 * where the next byte is not one of its continuations, as a UTF-8 decoder reads it.
 */

/** Nothing complete yet. */
export const NONE = -1;
/** Something JSON does not allow in a string. */
export const MALFORMED = -2;
/** A raw non-ASCII character of one unit. */
export const OTHER = 0xfffd;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** The unit each one-character escape stands for. */
const ESCAPED: Readonly<Record<number, number>> = {
  0x22: 0x22,
  0x5c: 0x5c,
  0x2f: 0x2f,
  0x62: 0x08,
  0x66: 0x0c,
  0x6e: 0x0a,
  0x72: 0x0d,
  0x74: 0x09,
};

export class EscapeReader {
  /** The string's closing quote. */
  static readonly CLOSE = -3;
  /** A raw non-ASCII character of two units (four UTF-8 bytes). */
  static readonly OTHER_PAIR = -4;

  /** 1 after a backslash; 2 within the hex digits of a `\u` escape. */
  #escape = 0;
  #hexLeft = 0;
  #hex = 0;
  /** Continuation bytes of a raw UTF-8 character still to come. */
  #utf8 = 0;

  /** No escape or UTF-8 character under way. */
  idle(): boolean {
    return this.#escape === 0 && this.#utf8 === 0;
  }

  /** For a copied string: whether the next byte is escaped (skipped), and skipping it. */
  skipping(): boolean {
    return this.#escape === 1;
  }

  skipped(): void {
    this.#escape = 0;
  }

  skipNext(): void {
    this.#escape = 1;
  }

  /** What `byte` completes: a unit, {@link NONE}, {@link MALFORMED}, or a close or pair. */
  unit(byte: number): number {
    if (this.#utf8 > 0 && (byte & 0xc0) !== 0x80) this.#utf8 = 0;
    if (this.#escape === 1) return this.#escaped(byte);
    if (this.#escape === 2) return this.#hexDigit(byte);
    if (this.#utf8 > 0) {
      this.#utf8 -= 1;
      return NONE;
    }
    if (byte === QUOTE) return EscapeReader.CLOSE;
    if (byte === BACKSLASH) {
      this.#escape = 1;
      return NONE;
    }
    if (byte < 0x20) return MALFORMED;
    return byte < 0x80 ? byte : this.#lead(byte);
  }

  #escaped(byte: number): number {
    if (byte === 0x75) {
      this.#escape = 2;
      this.#hexLeft = 4;
      this.#hex = 0;
      return NONE;
    }
    this.#escape = 0;
    return ESCAPED[byte] ?? MALFORMED;
  }

  #hexDigit(byte: number): number {
    const digit = Number.parseInt(String.fromCharCode(byte), 16);
    if (Number.isNaN(digit)) return MALFORMED;
    this.#hex = this.#hex * 16 + digit;
    this.#hexLeft -= 1;
    if (this.#hexLeft > 0) return NONE;
    this.#escape = 0;
    return this.#hex;
  }

  /**
   * A raw non-ASCII byte: a character's first byte (its continuation bytes follow), or a byte no
   * character starts with, which stands for one unknown character (a UTF-8 decoder's U+FFFD).
   */
  #lead(byte: number): number {
    if (byte >= 0xf0 && byte <= 0xf4) {
      this.#utf8 = 3;
      return EscapeReader.OTHER_PAIR;
    }
    if (byte >= 0xe0 && byte <= 0xef) this.#utf8 = 2;
    else if (byte >= 0xc2 && byte <= 0xdf) this.#utf8 = 1;
    return OTHER;
  }
}
