/**
 * Images a service sends inline (a `data:` URL or `b64_json` in place of an address): what the
 * main process holds once it decoded one, and the short token a record keeps for it until the
 * image is saved. The bytes never go into a record: the token names the spool file that holds
 * them (electron/core/download/inline-spool.ts).
 */

/** An image a service sent inline, decoded: its bytes and their SHA-256 (lower-case hex). */
export interface InlineImage {
  readonly sha256: string;
  readonly bytes: Uint8Array;
}

const INLINE_TOKEN = /^inline:([0-9a-f]{64})$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Whether `value` is a SHA-256 as an {@link inlineToken} names it: 64 lower-case hex digits. */
export function isInlineHash(value: string): boolean {
  return SHA256_HEX.test(value);
}

/** What a record keeps in place of an inline image's address: `inline:<sha256>`. */
export function inlineToken(sha256: string): string {
  return `inline:${sha256}`;
}

/** The SHA-256 an image's `url` names when it is an {@link inlineToken}, else `null`. */
export function inlineTokenHash(url: string | null | undefined): string | null {
  return typeof url === 'string' ? (INLINE_TOKEN.exec(url)?.[1] ?? null) : null;
}
