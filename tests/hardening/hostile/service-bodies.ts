/**
 * Generated service answers for the parser properties: arbitrary text and bytes, arbitrary JSON,
 * and valid answers mutated (fields removed, wrong types, huge arrays, nested junk), each with
 * an API key planted in one of the forms a server might echo it.
 *
 * No body is larger than the client's limit (1 MiB): a parser is never given more, so a larger
 * one tests nothing that can happen (the generator used to make some of up to 58 MB, seconds
 * each). The large kinds take 0.1–1 s each to parse where the common ones take under 1 ms, so
 * they are their own arbitrary and the suite runs each at its own count.
 */
import fc from 'fast-check';
import {
  binaryString,
  controlString,
  deepNesting,
  hostileString,
  hugeStringOf,
  loneSurrogates,
  toJson,
  withProtoKeys,
} from './hostile-values';

/** Keys: realistic ones, and any sendable ASCII (HTML-special characters included). */
export const apiKey: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^sk-[A-Za-z0-9_-]{20,40}$/),
  fc.stringMatching(/^[A-Za-z0-9+/]{24,40}={0,2}$/),
  fc.stringMatching(/^[\x21-\x7e]{16,40}$/),
);

const htmlEscapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The forms a server may echo a key in: as is, JSON-escaped, HTML-escaped, percent-encoded. */
export const KEY_FORMS = [
  'raw',
  'json-unicode',
  'json-slash',
  'html',
  'percent',
  'json-string',
] as const;
type KeyForm = (typeof KEY_FORMS)[number];

function keyIn(form: KeyForm, key: string): string {
  switch (form) {
    case 'raw':
      return key;
    case 'json-unicode':
      return [...key]
        .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
    case 'html':
      return key.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
    case 'json-slash':
      return JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/');
    case 'percent':
      return encodeURIComponent(key);
    case 'json-string':
      return JSON.stringify(key).slice(1, -1);
  }
}

/** Puts the key (in `form`) into `text` at `at` (a fraction of its length). */
export function plant(text: string, key: string, form: KeyForm, at: number): string {
  const index = Math.floor(Math.min(Math.max(at, 0), 1) * text.length);
  return `${text.slice(0, index)}${keyIn(form, key)}${text.slice(index)}`;
}

const json = toJson;

const validTask = fc.oneof(
  fc.record({ id: fc.string(), status: fc.constant('processing') }),
  fc.record({
    id: fc.string(),
    status: fc.constant('completed'),
    output: fc.record({ data: fc.array(fc.record({ url: fc.webUrl() }), { maxLength: 4 }) }),
  }),
  fc.record({
    status: fc.constant('failed'),
    error: fc.oneof(fc.string(), fc.record({ message: fc.string(), code: fc.string() })),
  }),
);
const validSubmit = fc.record({ id: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/) });

/** The client's limit on a body (ServiceClient's default `maxResponseBytes`). */
export const MAX_BODY_CHARS = 1024 * 1024;

/** Junk for a field (huge text has its own kind). */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  controlString,
  loneSurrogates,
  deepNesting,
);

/** Junk small enough to repeat 10 000 times in one body and stay under the limit. */
const smallJunk: fc.Arbitrary<unknown> = fc
  .oneof(fc.jsonValue({ maxDepth: 2 }), controlString, loneSurrogates)
  .map((value) => (json(value).length <= 40 ? value : null));

/** 10 kB to the limit, as many of each order of magnitude (10 kB, 100 kB, 1 MB). */
const hugeLength = fc
  .integer({ min: 0, max: 1_000 })
  .map((step) => Math.round(10_000 * (MAX_BODY_CHARS / 10_000) ** (step / 1_000)));

/** Walks to a random object inside `value` and removes, retypes or adds a field there. */
function mutate(value: unknown, pick: number, junk: unknown, how: number): unknown {
  if (value === null || typeof value !== 'object') return junk;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const name = keys[pick % Math.max(keys.length, 1)];
  const inner = name === undefined ? undefined : record[name];
  if (inner !== null && typeof inner === 'object' && pick % 3 === 0) {
    return { ...record, [name!]: mutate(inner, Math.floor(pick / 3), junk, how) };
  }
  if (how === 0 && name !== undefined) {
    return Object.fromEntries(Object.entries(record).filter(([field]) => field !== name));
  }
  const copy = { ...record };
  if (how === 0) return copy;
  if (how === 1 && name !== undefined) copy[name] = junk;
  else if (how === 2)
    copy['output'] = {
      data: Array.from({ length: 10_000 }, (_, index) => ({
        url: index % 2 ? junk : `https://cdn.example/${index}.png`,
      })),
    };
  else return withProtoKeys({ ...copy, extra: junk }, junk);
  return copy;
}

/** `suffix`, when set, closes the text after the key is planted at its end (inside a JSON string). */
export type Body = { readonly kind: string; readonly text: string; readonly suffix?: string };

/** Bodies that take under a millisecond to parse, of every kind but the large ones. */
export const commonBody: fc.Arbitrary<Body> = fc.oneof(
  binaryString({ maxLength: 300 }).map((text) => ({ kind: 'random-text', text })),
  hostileString
    .filter((text) => text.length < 10_000)
    .map((text) => ({ kind: 'hostile-text', text })),
  fc
    .uint8Array({ maxLength: 400 })
    .map((bytes) => ({ kind: 'random-bytes', text: new TextDecoder().decode(bytes) })),
  fc.jsonValue().map((value) => ({ kind: 'random-json', text: json(value) })),
  fc
    .tuple(fc.oneof(validTask, validSubmit), fc.nat(), junk, fc.constantFrom(0, 1, 3))
    .map(([valid, pick, junk, how]) => ({
      kind: 'mutated-answer',
      text: json(mutate(valid, pick, junk, how)),
    })),
  fc.oneof(validTask, validSubmit).map((valid) => ({ kind: 'valid-answer', text: json(valid) })),
  fc
    .tuple(fc.string({ maxLength: 480 }), fc.constantFrom('failed', 'processing', 'completed'))
    .map(([words, status]) => ({
      kind: 'key-inside-json-message',
      text: `{"status":"${status}","id":"t","error":{"message":"${words.replace(/["\\]/g, '')}`,
      suffix: '"}}',
    })),
  fc.string({ maxLength: 200 }).map((words) => ({
    kind: 'html-page',
    text: `<!doctype html><html><body><h1>Error</h1><p>${words}</p></body></html>`,
  })),
);

/** Bodies of 10 kB up to the limit: huge text, deep JSON, huge arrays (0.1–1 s each to parse). */
export const largeBody: fc.Arbitrary<Body> = fc.oneof(
  hugeStringOf(hugeLength).map((text) => ({ kind: 'huge-text', text })),
  fc
    .tuple(fc.integer({ min: 1_000, max: 50_000 }), fc.constantFrom('[', '{"error":'))
    .map(([depth, open]) => ({
      kind: 'deep-json',
      text: `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`,
    })),
  fc.tuple(fc.oneof(validTask, validSubmit), fc.nat(), smallJunk).map(([valid, pick, junk]) => ({
    kind: 'huge-array',
    text: json(mutate(valid, pick, junk, 2)),
  })),
);

/** The kinds of {@link commonBody} and {@link largeBody}. */
export const COMMON_KINDS = [
  'random-text',
  'hostile-text',
  'random-bytes',
  'random-json',
  'mutated-answer',
  'valid-answer',
  'key-inside-json-message',
  'html-page',
] as const;
export const LARGE_KINDS = ['huge-text', 'deep-json', 'huge-array'] as const;

/** Bodies drawn from `bodies`, each with a key planted in it, tagged by kind. */
export function withKey(bodies: fc.Arbitrary<Body>) {
  return fc
    .tuple(
      bodies,
      apiKey,
      fc.constantFrom(...KEY_FORMS),
      fc.double({ min: 0, max: 1, noNaN: true }),
    )
    .map(([{ kind, text, suffix }, key, form, at]) => ({
      kind,
      key,
      form,
      text:
        suffix === undefined ? plant(text, key, form, at) : `${plant(text, key, form, 1)}${suffix}`,
    }));
}
