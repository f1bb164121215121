/**
 * The streaming decoder of large inline payloads (inline-stream.ts) refuses exactly what the
 * strict decoder of inline-image.ts refuses, for the same reason, and decodes the same bytes,
 * however its characters are cut into runs and escapes: a property over short payloads of every
 * kind of character (alphabet, padding, whitespace, header characters, non-ASCII) and small caps,
 * so that every refusal and every boundary is reached.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64Length,
  decodeBase64Image,
  decodeDataUrl,
  type InlineReading,
} from '../../../../electron/core/service/inline-image';
import { InlineDecoder } from '../../../../electron/core/service/inline-stream';

const ALPHABET = /[A-Za-z0-9+/]/;

/** Whether the reader passes this character in a run (ASCII, not a quote, backslash or control). */
function plain(code: number): boolean {
  return code >= 0x20 && code < 0x80 && code !== 0x22 && code !== 0x5c;
}

/**
 * Feeds `text` as the answer's reader does (string-reader.ts): while the decoder decodes, runs of
 * the alphabet in one go and anything else one unit at a time; otherwise runs of plain ASCII;
 * every run also cut at `cuts` (where the body's chunks end).
 */
function streamed(
  form: 'dataUrl' | 'base64',
  text: string,
  max: number,
  cuts: readonly number[],
): InlineReading {
  const decoder = new InlineDecoder(form, max);
  let at = 0;
  while (at < text.length) {
    const decoding = decoder.decoding;
    const inRun = (i: number) =>
      i < text.length &&
      (i === at || !cuts.includes(i)) &&
      (decoding ? ALPHABET.test(text.charAt(i)) : plain(text.charCodeAt(i)));
    let end = at;
    while (inRun(end)) end += 1;
    if (end > at) {
      if (decoding) decoder.alphabet(text.slice(at, end));
      else decoder.text(text.slice(at, end));
      at = end;
    } else {
      decoder.unit(text.charCodeAt(at));
      at += 1;
    }
  }
  return decoder.end();
}

function same(actual: InlineReading, expected: InlineReading): void {
  if (!expected.ok) {
    expect(actual).toEqual(expected);
    return;
  }
  expect(actual.ok).toBe(true);
  if (!actual.ok) return;
  expect(actual.image.sha256).toBe(expected.image.sha256);
  expect(Buffer.from(actual.image.bytes).equals(Buffer.from(expected.image.bytes))).toBe(true);
}

const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('QUJD', 'AAAA', '////', '+/+/', 'QQ', 'QUI', 'Zg') },
  { weight: 2, arbitrary: fc.constantFrom('=', '==', '===') },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\n', '\t', '\r', '\f', '\v', '\u00a0') },
  { weight: 1, arbitrary: fc.constantFrom('-', '_', '*', ':', ';', ',', 'é', '😀', '\u0000', '"') },
);
const base64Text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
const header = fc.constantFrom(
  'data:image/png;base64,',
  'DATA:IMAGE/PNG;BASE64,',
  'data:image/webp;name=a.webp;base64,',
  'data: image/jpeg ;base64,',
  'data:image/gif;base64,',
  'data:image/png,',
  'data:image/png;base64',
  'data:image/png;x y;base64,',
  `data:image/png;${'a=b;'.repeat(70)}base64,`,
  'data:imagé/png;base64,',
);
const edge = fc.constantFrom('', ' ', '\n\t', '\u00a0');
const cuts = fc.array(fc.nat({ max: 80 }), { maxLength: 6 });
const cap = fc.constantFrom(1, 2, 3, 4, 6, 12, 64);

describe('the streaming inline decoder', () => {
  it('agrees with decodeBase64Image on bare base64, whatever the cuts', () => {
    fc.assert(
      fc.property(base64Text, cap, cuts, (text, max, at) => {
        same(streamed('base64', text, max, at), decodeBase64Image(text, max));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with decodeDataUrl on data URLs, whatever the cuts', () => {
    fc.assert(
      fc.property(edge, header, base64Text, edge, cap, cuts, (lead, head, data, trail, max, at) => {
        const text = `${lead}${head}${data}${trail}`;
        same(streamed('dataUrl', text, max, at), decodeDataUrl(text, max));
      }),
      { numRuns: 3000 },
    );
  });

  it('decodes a large payload to the bytes Buffer decodes, refusing it one byte over the cap', () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 2, 0);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919) % 251;
    const text = bytes.toString('base64');
    const read = streamed('base64', text, bytes.length, [1, 70_001, 2_000_003]);
    same(read, decodeBase64Image(text, bytes.length));
    expect(read.ok).toBe(true);
    expect(streamed('base64', text, bytes.length - 1, [])).toEqual({ ok: false, why: 'tooBig' });
    // Longer than the cap allows: refused for its length, whatever its characters.
    const junk = '*'.repeat(base64Length(64) + 4);
    expect(streamed('base64', junk, 64, [])).toEqual({ ok: false, why: 'tooBig' });
  });
});
