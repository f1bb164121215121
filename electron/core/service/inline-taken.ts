/**
 * The inline payloads the answer's reader took out of an answer as it arrived (answer-scan.ts),
 * and the placeholders it left in their place: the rest of the answer, at most the usual limit,
 * is what gets parsed, read by the profile and searched for the key. A placeholder is a short
 * string no service can write (it names a random nonce of this answer); where the profile's
 * reading puts one in an image entry, that entry's image is the payload it stands for
 * (inline-answer.ts). Anywhere else it stands for nothing Pictor shows.
 */
import type { InlineReading } from './inline-image';

/** A payload taken out of an answer, decoded as it arrived (or not read: one too many). */
export interface TakenPayload {
  /** What it looked like: a `data:` URL, or bare base64 (an OpenAI-style `b64_json`). */
  readonly form: 'dataUrl' | 'base64';
  /** Its image or why it was refused; `null` when it was not read at all (beyond the count). */
  readonly reading: InlineReading | null;
}

/** The payloads of one answer, by the index its placeholder names. */
export interface TakenPayloads {
  readonly nonce: string;
  readonly payloads: readonly TakenPayload[];
}

/** The prefix of every placeholder: a NUL makes it unusable as a name, an id or an address. */
const PREFIX = '\u0000pictor-inline:';

/** The string that stands for payload `index` of the answer with this `nonce`. */
export function placeholder(nonce: string, index: number): string {
  return `${PREFIX}${nonce}:${index}`;
}

/** The payload `value` stands for, when it is one of `taken`'s placeholders. */
export function takenPayload(
  taken: TakenPayloads | undefined,
  value: unknown,
): TakenPayload | null {
  if (taken === undefined || typeof value !== 'string') return null;
  const head = `${PREFIX}${taken.nonce}:`;
  if (!value.startsWith(head)) return null;
  const rest = value.slice(head.length);
  if (!/^\d{1,6}$/.test(rest)) return null;
  return taken.payloads[Number(rest)] ?? null;
}

/** What a placeholder reads as where text is shown (a failure's reason, a status word). */
const INLINE_DATA_TEXT = '[inline data]';

/**
 * `text` (shown to the user, cleaned: the NUL is a space by now) with every placeholder, or the
 * start of one a length limit cut, read as {@link INLINE_DATA_TEXT}.
 */
export function namedPlaceholders(text: string): string {
  return text.replace(/\s?pictor-inline:[0-9a-f]*(?::\d*)?/g, ` ${INLINE_DATA_TEXT}`).trim();
}
