/**
 * Text inside the XMP packet. XML 1.0 cannot hold every string a prompt may be: control
 * characters, lone surrogates and U+FFFE/U+FFFF are not XML characters at all, and a parser turns
 * a raw CR into LF. So a prompt is written twice only when it must be: a readable copy with such
 * characters replaced by U+FFFD, and an exact copy in which they (and the backslash) are written
 * as `\uXXXX` escapes.
 */
import { XML_ENTITIES } from '../../../../shared/text/entities';

const REPLACEMENT = '\uFFFD';

/** Characters XML 1.0 allows (its `Char` production), as a code-unit test over a string. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd)
  );
}

/** Calls `visit` with each code point of `text`; a lone surrogate comes as itself. */
function eachCodePoint(text: string, visit: (point: number, unit: string) => void): void {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      visit(((code - 0xd800) << 10) + (next - 0xdc00) + 0x10000, text.slice(i, i + 2));
      i += 1;
    } else visit(code, text[i] ?? '');
  }
}

function allowed(point: number): boolean {
  return point >= 0x10000 ? point <= 0x10ffff : isXmlChar(point);
}

/** `text` with every character XML cannot hold replaced by U+FFFD. */
export function xmlSafe(text: string): string {
  let out = '';
  eachCodePoint(text, (point, unit) => (out += allowed(point) ? unit : REPLACEMENT));
  return out;
}

/** `text` with `\` and every character XML cannot hold written as `\uXXXX` (reversible). */
function escapeExact(text: string): string {
  let out = '';
  eachCodePoint(text, (point, unit) => {
    if (unit === '\\') out += '\\\\';
    else if (allowed(point)) out += unit;
    else out += `\\u${point.toString(16).padStart(4, '0')}`;
  });
  return out;
}

/**
 * The exact copy of `text` written beside its readable form ({@link xmlSafe}), escaped
 * ({@link escapeExact}); undefined when the readable form is exact already.
 */
export function exactCopy(text: string): string | undefined {
  return xmlSafe(text) === text ? undefined : escapeExact(text);
}

/** Undoes {@link escapeExact}; `null` when the text holds an escape it never writes. */
export function unescapeExact(text: string): string | null {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const unit = text[i] ?? '';
    if (unit !== '\\') {
      out += unit;
      continue;
    }
    if (text[i + 1] === '\\') {
      out += '\\';
      i += 1;
      continue;
    }
    const hex = /^u([0-9a-f]{4})/.exec(text.slice(i + 1, i + 6));
    if (!hex?.[1]) return null;
    out += String.fromCharCode(Number.parseInt(hex[1], 16));
    i += 5;
  }
  return out;
}

/** Element text: `&`, `<`, `>` as entities, CR as a character reference (a parser keeps it). */
export function escapeXml(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#xD;');
}

const REFERENCE = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g;
const STRAY_AMPERSAND = /&(?!(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});)/;

/** Undoes XML escaping in element text; `null` for an unknown entity or a bad reference. */
export function unescapeXml(text: string): string | null {
  if (STRAY_AMPERSAND.test(text)) return null;
  let failed = false;
  const out = text.replace(REFERENCE, (_match, body: string) => {
    if (!body.startsWith('#')) {
      const entity = XML_ENTITIES.get(body);
      if (entity === undefined) failed = true;
      return entity ?? '';
    }
    const point = body.startsWith('#x')
      ? Number.parseInt(body.slice(2), 16)
      : Number.parseInt(body.slice(1), 10);
    if (!allowed(point)) {
      failed = true;
      return '';
    }
    return String.fromCodePoint(point);
  });
  return failed ? null : out;
}

/**
 * The text of the first `<name>…</name>` in `xmp`, unescaped, as Pictor writes an element (text
 * alone, no attribute, no child); `undefined` when there is none or its text is not valid.
 */
export function elementText(xmp: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xmp);
  if (!match) return undefined;
  return unescapeXml(match[1] ?? '') ?? undefined;
}
