/**
 * The structural reader of an answer (answer-scan.ts): its skeleton parses to the answer itself
 * when nothing is taken, however the bytes arrive; large inline payloads leave it as placeholders
 * and come out decoded, escapes and all; and an answer past a structural bound (the skeleton's
 * size, nesting, a list's entries) is refused as soon as it is seen, never built.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INLINE_MIN_CHARS,
  MAX_ANSWER_DEPTH,
  MAX_ANSWER_ENTRIES,
  MAX_TAKEN_PAYLOADS,
} from '../../../../electron/core/service/answer-limits';
import { AnswerScan, type Scanned } from '../../../../electron/core/service/answer-scan';
import { takenPayload } from '../../../../electron/core/service/inline-taken';
import { decodeBase64Image, decodeDataUrl } from '../../../../electron/core/service/inline-image';

const NONCE = '0123456789abcdef0123456789abcdef';
const MIB = 1024 * 1024;

function scan(
  text: string | Uint8Array,
  options: { takeOut?: boolean; maxBytes?: number; cuts?: readonly number[] } = {},
) {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const reader = new AnswerScan({
    maxBytes: options.maxBytes ?? MIB,
    takeOut: options.takeOut ?? true,
    maxInlineBytes: 64 * MIB,
    nonce: NONCE,
  });
  const cuts = [...new Set(options.cuts ?? [])]
    .filter((cut) => cut > 0 && cut < bytes.length)
    .sort((a, b) => a - b);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    const fault = reader.push(bytes.subarray(from, cut));
    if (fault !== null) return fault;
    from = cut;
  }
  return reader.end();
}

function scanned(result: ReturnType<typeof scan>): Scanned {
  if (typeof result === 'string') throw new Error(`refused: ${result}`);
  return result;
}

function noise(length: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) bytes[i] = (i * 7919 + seed * 104729) % 256;
  return bytes;
}

describe('the skeleton of an answer', () => {
  it('parses to the answer itself when nothing is taken, however its bytes arrive', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.array(fc.nat({ max: 400 })), (value, cuts) => {
        const text = JSON.stringify(value, null, 1);
        const result = scanned(scan(text, { cuts }));
        expect(JSON.parse(result.text)).toEqual(JSON.parse(text));
        expect(result.taken.payloads).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps whatever JSON.parse refuses refused: malformed stays malformed', () => {
    for (const text of ['{"a":', '{"a" "b"}', '[1,2', '{"a":"\\x"}', 'nul', '{"a":1}}']) {
      const result = scan(text);
      const parses = typeof result !== 'string' && safeParse(result.text);
      expect(parses, text).toBe(false);
    }
  });

  it('keeps duplicate names as written: JSON.parse takes the last, as it always did', () => {
    const text = '{"status":"failed","status":"completed","output":{"data":[]}}';
    expect(JSON.parse(scanned(scan(text)).text)).toEqual(JSON.parse(text));
  });
});

function safeParse(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('inline payloads', () => {
  const image = noise(300_000);
  const base64 = image.toString('base64');

  it('are taken out as placeholders and decoded as they arrive, escapes undone', () => {
    const escaped = JSON.stringify(base64).replace(/\//g, '\\/').replace(/A/g, '\\u0041');
    const text = `{"output":{"data":[{"url":"data:image/png;base64,${base64}"},{"b64_json":${escaped}}]}}`;
    const result = scanned(scan(text, { cuts: [5, 100, 17_000, 200_001] }));
    expect(result.text.length).toBeLessThan(300);
    const json = JSON.parse(result.text) as { output: { data: Record<string, string>[] } };
    const [first, second] = json.output.data;
    for (const [value, form] of [
      [first?.['url'], 'dataUrl'],
      [second?.['b64_json'], 'base64'],
    ] as const) {
      const taken = takenPayload(result.taken, value);
      expect(taken?.form).toBe(form);
      expect(taken?.reading?.ok).toBe(true);
      if (taken?.reading?.ok)
        expect(Buffer.from(taken.reading.image.bytes).equals(image)).toBe(true);
    }
  });

  it('decode as the strict decoder decodes the string JSON.parse makes, however escaped and cut', () => {
    const insert = fc.constantFrom(
      '',
      '=',
      '==',
      ' ',
      '\n',
      '-',
      '*',
      'é',
      '😀',
      '\u00a0',
      '"',
      '\\',
    );
    const escape = (text: string, how: number) =>
      JSON.stringify(text).replace(/[/A=]/g, (char, at: number) =>
        (at + how) % 3 === 0
          ? char === '/'
            ? '\\/'
            : `\\u00${char.charCodeAt(0).toString(16)}`
          : char,
      );
    fc.assert(
      fc.property(
        fc.constantFrom(
          '',
          'data:image/png;base64,',
          ' data:image/webp;base64,',
          'data:text/plain;base64,',
        ),
        fc.integer({ min: 12_300, max: 13_000 }),
        fc.array(fc.tuple(fc.nat(), insert), { maxLength: 3 }),
        fc.nat(2),
        fc.array(fc.nat({ max: 20_000 }), { maxLength: 4 }),
        (head, size, inserts, how, cuts) => {
          let data = noise(size, size).toString('base64');
          for (const [at, char] of inserts) {
            const place = at % (data.length + 1);
            data = data.slice(0, place) + char + data.slice(place);
          }
          const payload = head + data;
          const result = scanned(scan(`{"v":${escape(payload, how)}}`, { cuts }));
          const { v } = JSON.parse(result.text) as { v: string };
          const taken = takenPayload(result.taken, v);
          // Unlike a payload before it was long enough (a character early on): left as text.
          if (taken === null) {
            expect(v).toBe(payload);
            return;
          }
          const max = 64 * MIB;
          const expected =
            taken?.form === 'dataUrl'
              ? decodeDataUrl(payload, max)
              : decodeBase64Image(payload, max);
          if (!expected.ok) expect(taken?.reading).toEqual(expected);
          else expect(taken?.reading?.ok && taken.reading.image.sha256).toBe(expected.image.sha256);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('stay in the text when shorter than the threshold, or not like a payload', () => {
    const short = image.subarray(0, 1000).toString('base64');
    const prose = 'word '.repeat(INLINE_MIN_CHARS);
    const text = JSON.stringify({ a: short, b: prose, c: `(${base64.slice(0, 20_000)})` });
    const result = scanned(scan(text));
    expect(JSON.parse(result.text)).toEqual(JSON.parse(text));
  });

  it('are never taken from a name, nor from an answer that carries no images inline', () => {
    const text = `{"${base64}":1,"v":"${base64}"}`;
    expect(scan(text, { maxBytes: 2 * base64.length })).not.toBe('tooLarge');
    expect(scanned(scan(text, { maxBytes: 2 * base64.length })).taken.payloads).toHaveLength(1);
    expect(scan(text, { takeOut: false, maxBytes: 2 * base64.length })).toBe('tooLarge');
  });

  it('beyond the count are taken out but not decoded', () => {
    const values = Array.from({ length: MAX_TAKEN_PAYLOADS + 2 }, () => base64.slice(0, 20_000));
    const result = scanned(scan(JSON.stringify(values)));
    const readings = result.taken.payloads.map((payload) => payload.reading);
    expect(readings).toHaveLength(MAX_TAKEN_PAYLOADS + 2);
    expect(readings.slice(MAX_TAKEN_PAYLOADS)).toEqual([null, null]);
    expect(readings[0]?.ok).toBe(true);
  });

  it('with a control character or a bad escape make the answer malformed', () => {
    expect(scan(`["${base64}\\x"]`)).toBe('malformed');
    expect(scan(`["${base64}\u0001"]`)).toBe('malformed');
    expect(scan(`["${base64}\\u12G4"]`)).toBe('malformed');
    expect(scan(`["${base64}`)).toBe('malformed');
  });
});

describe('structural bounds', () => {
  it('refuse a skeleton past the limit, whatever holds the bytes', () => {
    expect(scan(JSON.stringify({ message: 'a failure. '.repeat(MIB / 10) }))).toBe('tooLarge');
    // Base64 in a field an image is not read from is still taken out: never searched, never shown.
    expect(typeof scan(JSON.stringify({ message: 'x'.repeat(MIB) }))).toBe('object');
    expect(scan(`[${'0,'.repeat(200)}0]`, { maxBytes: 300 })).toBe('tooLarge');
    expect(scan(`{"a":${' '.repeat(MIB)}1}`)).toBe('tooLarge');
    const fits = JSON.stringify({ message: '.'.repeat(MIB - 20) });
    expect(typeof scan(fits)).toBe('object');
  });

  it('refuse nesting deeper than the bound, as soon as it is reached', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(typeof scan(deep(MAX_ANSWER_DEPTH))).toBe('object');
    expect(scan(deep(MAX_ANSWER_DEPTH + 1))).toBe('tooDeep');
    const reader = new AnswerScan({ maxBytes: MIB, takeOut: true, maxInlineBytes: 1, nonce: '' });
    expect(reader.push(Buffer.from('{"a":'.repeat(MAX_ANSWER_DEPTH + 1)))).toBe('tooDeep');
  });

  it('refuse a list of more entries than the bound, not counting commas in strings', () => {
    const list = (n: number) => `{"output":{"data":[${Array(n).fill('{}').join(',')}]}}`;
    expect(typeof scan(list(MAX_ANSWER_ENTRIES))).toBe('object');
    expect(scan(list(MAX_ANSWER_ENTRIES + 1))).toBe('tooManyEntries');
    expect(typeof scan(JSON.stringify({ a: ','.repeat(10_000), b: { c: 1, d: 2 } }))).toBe(
      'object',
    );
  });

  it('refuse 29 million entries after reading a few kilobytes of them', () => {
    const reader = new AnswerScan({ maxBytes: MIB, takeOut: true, maxInlineBytes: 1, nonce: '' });
    const chunk = Buffer.from('{},'.repeat(1000));
    expect(reader.push(Buffer.from('{"status":"running","output":{"data":['))).toBeNull();
    let chunks = 1;
    while (reader.push(chunk) === null) chunks += 1;
    expect(reader.push(chunk)).toBe('tooManyEntries');
    expect(chunks).toBe(1);
  });
});
