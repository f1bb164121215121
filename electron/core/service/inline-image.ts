/**
 * A strict decoder for the images services send inline: a `data:image/<type>;base64,<data>` URL
 * in place of an address (fal's sync mode, Replicate's and Cog's data URIs) or an OpenAI-style
 * `b64_json` field (raw base64, no type). Only the standard base64 alphabet, padded to a whole
 * quantum with zero bits left over; only the image types the gallery saves (PNG, JPEG, WebP);
 * and at most the download's cap once decoded, judged from the text's length before a byte is
 * decoded. Anything else is refused with the reason, never "repaired": a lenient decoder would
 * turn junk into bytes that look like an image.
 *
 * Whether the bytes are an image is not judged here: they go through the download's own checks
 * (sniffing, header, decode, metadata) when they are saved (core/download/inline-spool.ts).
 */
import { createHash } from 'node:crypto';
import type { InlineImage } from '../../../shared/service/inline-token';

/** Why an inline image was refused: the `why` of the `error.service.inlineImageRefused` sentence. */
export type InlineRefusal = 'alphabet' | 'padding' | 'notBase64' | 'type' | 'tooBig' | 'empty';

export type InlineReading =
  | { readonly ok: true; readonly image: InlineImage }
  | { readonly ok: false; readonly why: InlineRefusal };

/** The characters of standard base64 (RFC 4648 §4), padding aside. */
const ALPHABET = /^[A-Za-z0-9+/]*$/;
export const ALPHABET_INDEX = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The media types an inline image may say it is (`image/jpg` is a common misspelling of JPEG). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp']);
/** A data URL's header (`data:<type>[;<name>=<value>]*;base64`) is short; a longer one is not one Pictor reads. */
export const MAX_HEADER_CHARS = 256;
/** A parameter of a data URL's media type (`name=value`, RFC 2045 tokens). */
const PARAMETER = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+=[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Characters of base64 that carry `bytes` bytes, padding included. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/**
 * Whether a character may stand around a data URL: ASCII whitespace (tab, line feed, vertical
 * tab, form feed, carriage return, space). Not Unicode's wider set: the answer's reader decodes
 * large payloads as they arrive (inline-stream.ts), a byte at a time, and both readers agree.
 */
export function isEdgeSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** `text` without the ASCII whitespace at its ends (a loop: a regex would backtrack on a long run). */
function trimEdges(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isEdgeSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isEdgeSpace(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

/** Whether an image entry's address is a `data:` URL (whatever it then holds). */
export function isDataUrl(value: string): boolean {
  return /^[\t\n\v\f\r ]*data:/i.test(value);
}

/**
 * The bytes of strict base64 text of at most `maxBytes` decoded bytes, or why not. The length
 * is checked first, so a huge text is refused without being scanned.
 */
export function decodeBase64Image(text: string, maxBytes: number): InlineReading {
  if (text.length === 0) return { ok: false, why: 'empty' };
  if (text.length > base64Length(maxBytes)) return { ok: false, why: 'tooBig' };
  const pads = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const data = pads === 0 ? text : text.slice(0, -pads);
  if (!ALPHABET.test(data)) return { ok: false, why: 'alphabet' };
  if (text.length % 4 !== 0 || !zeroTail(data, pads)) return { ok: false, why: 'padding' };
  const size = (text.length / 4) * 3 - pads;
  if (size > maxBytes) return { ok: false, why: 'tooBig' };
  const bytes = Buffer.from(data, 'base64');
  // The checks above make the decoder's answer exact; a mismatch would be a decoder that skips.
  if (bytes.length !== size) return { ok: false, why: 'alphabet' };
  return { ok: true, image: { sha256: createHash('sha256').update(bytes).digest('hex'), bytes } };
}

/** The bits a padded quantum leaves over are zero (a canonical encoding, RFC 4648 §3.5). */
function zeroTail(data: string, pads: number): boolean {
  if (pads === 0) return true;
  const last = ALPHABET_INDEX.indexOf(data.at(-1) ?? '');
  return (last & (pads === 2 ? 0b1111 : 0b11)) === 0;
}

/**
 * The image a `data:` URL holds: its media type one of PNG, JPEG or WebP (parameters allowed),
 * marked `;base64`, its data strict base64 (see {@link decodeBase64Image}). The type is checked
 * against the bytes later, as a download's Content-Type is: the bytes decide.
 */
export function decodeDataUrl(url: string, maxBytes: number): InlineReading {
  const text = trimEdges(url);
  // The header is looked for at the start only: a huge URL without a comma is not scanned.
  const comma = text.slice(0, MAX_HEADER_CHARS + 1).indexOf(',');
  if (comma === -1) return { ok: false, why: 'notBase64' };
  const fault = dataUrlHeaderFault(text.slice(0, comma));
  if (fault !== null) return { ok: false, why: fault };
  return decodeBase64Image(text.slice(comma + 1), maxBytes);
}

/**
 * What is wrong with a data URL's header (`data:<type>[;<name>=<value>]*;base64`, the text
 * before its comma), or `null` when it names an image type Pictor saves, in base64.
 */
export function dataUrlHeaderFault(header: string): InlineRefusal | null {
  if (!/^data:/i.test(header)) return 'notBase64';
  const [type = '', ...rest] = header.slice('data:'.length).split(';');
  if (!IMAGE_TYPES.has(trimEdges(type).toLowerCase())) return 'type';
  const marker = rest.pop();
  if (marker?.toLowerCase() !== 'base64' || !rest.every((part) => PARAMETER.test(part))) {
    return 'notBase64';
  }
  return null;
}
