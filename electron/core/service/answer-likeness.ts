/**
 * Whether a string value of an answer, as its characters arrive, still looks like an inline image
 * (string-reader.ts takes out one that does once it is long): a `data:` URL (after any ASCII
 * whitespace), or nothing but base64 (its alphabet, padding and line breaks). Anything else is
 * text, and stays in the answer's text, within its usual limit.
 */
import { isEdgeSpace } from './inline-image';
import { inAlphabet } from './inline-stream';

const DATA = 'data:';

export class Likeness {
  /** Characters of `data:` matched so far (5: a data URL), or -1: it does not start so. */
  #prefix = 0;
  #base64 = true;

  /** The next character's UTF-16 unit. */
  unit(code: number): void {
    this.#matchPrefix(code);
    if (this.#base64 && !(inAlphabet(code) || code === 0x3d || code === 0x0a || code === 0x0d)) {
      this.#base64 = false;
    }
  }

  /**
   * A run of `length` characters of base64 (alphabet and padding), of which `head` is the start:
   * they keep it base64, and only the first few can matter to the `data:` prefix.
   */
  base64(head: string, length: number): void {
    for (let i = 0; i < head.length && i < length; i += 1) this.#matchPrefix(head.charCodeAt(i));
  }

  /** Whether it may still turn out to be a payload. */
  alive(): boolean {
    return this.#prefix >= 0 || this.#base64;
  }

  /** The payload it looks like now, if any. */
  form(): 'dataUrl' | 'base64' | null {
    if (this.#prefix === DATA.length) return 'dataUrl';
    return this.#base64 ? 'base64' : null;
  }

  #matchPrefix(code: number): void {
    if (this.#prefix < 0 || this.#prefix === DATA.length) return;
    if (this.#prefix === 0 && isEdgeSpace(code)) return;
    const lower = code >= 0x41 && code <= 0x5a ? code + 32 : code;
    this.#prefix = lower === DATA.charCodeAt(this.#prefix) ? this.#prefix + 1 : -1;
  }
}
