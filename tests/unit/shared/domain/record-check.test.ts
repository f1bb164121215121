/**
 * The history's plain record check (shared/domain/record-check.ts) against the schema it
 * stands in for: for every record, stored-shape or crafted, what the check returns is exactly what
 * `taskRecordSchema.safeParse` returns (the same fields in the same order, the same values), or
 * the check is not sure and says so; `parseTaskRecord` answers as the schema does every time.
 * The records are JSON texts parsed as the history reads them: generated from the shapes a
 * library holds, then changed field by field with values a crafted file could hold (wrong
 * types, NaN and huge numbers, padded or control-character strings, unknown and `__proto__`
 * keys, missing and null fields).
 */
import { describe, expect, it } from 'vitest';
import { taskRecordSchema, type TaskRecord } from '../../../../shared/domain/task-record';
import {
  IMAGE_KEYS as CHECKED_IMAGE_KEYS,
  REQUEST_KEYS as CHECKED_REQUEST_KEYS,
  TASK_KEYS as CHECKED_TASK_KEYS,
  parseTaskRecord,
  plainTaskRecord,
} from '../../../../shared/domain/record-check';
import { makeImage, makeTaskRecord } from '../../../support/task-records';

type Json = Record<string, unknown>;

/** The records a library holds most: a finished task with saved, triaged images. */
function storedShapes(): TaskRecord[] {
  const images = [0, 1, 2, 3].map((index) => makeImage(index));
  return [
    makeTaskRecord(),
    makeTaskRecord({ images, folder: '2024/999999' }),
    makeTaskRecord({
      request: { prompt: 'A fox', model: 'model-b', size: '1024x1024', quality: 'hd' },
      images: [
        makeImage(0, { rating: 4, flag: 'reject', tags: ['a', 'b'], boards: ['X/Y'] }),
        makeImage(1, { favourite: true, triagedAt: 1_700_000_000_000, xmpFile: 'f/image-1.xmp' }),
        { index: 2, url: null, state: 'pending', attempts: 0, favourite: false },
        {
          index: 3,
          url: 'u',
          state: 'expired',
          attempts: 3,
          error: 'gone',
          expiredAt: 5,
          favourite: false,
        },
      ],
      provider: 'fal',
      imported: true,
      batchId: 'local-0',
      batchIndex: 2,
      resultsExpireAt: 1,
      canceledByUserAt: 2,
      stoppedWatchingAt: 3,
      hold: 'awaiting_key',
    }),
    makeTaskRecord({ status: 'submitting', taskId: null, hold: null, folder: null }),
  ];
}

/** Values a crafted library file could hold in a field. */
const HOSTILE: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  1e308,
  '',
  ' ',
  'NaN',
  '1024x1024',
  ' padded ',
  'x'.repeat(4_097),
  Array.from({ length: 1_001 }, () => 't'),
  -0,
  1_700_000_000_000,
  'bad\u202ename',
  'tab\tname',
  [],
  ['a'],
  ['1024x1024'],
  {},
  { prompt: 'p' },
];
/** JSON texts' own spellings of what JSON.stringify cannot write: huge numbers, `__proto__`. */
const RAW: readonly string[] = ['1e400', '-1e400', '{"__proto__":{"polluted":1}}', '"\\u0000"'];

/** A small deterministic generator (mulberry32), so a failure names its case. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(next: () => number, from: readonly T[]): T =>
  from[Math.floor(next() * from.length)] as T;

/** Places a record has fields: the task, its request, one of its images. */
function targetOf(record: Json, next: () => number): Json {
  const images = record['images'];
  const roll = next();
  if (roll < 0.3 && Array.isArray(images) && images.length > 0) {
    const image: unknown = pick(next, images);
    // An image an earlier change replaced by a plain value: change the task instead.
    if (typeof image === 'object' && image !== null) return image as Json;
  }
  if (roll < 0.5 && typeof record['request'] === 'object' && record['request'] !== null) {
    return record['request'] as Json;
  }
  return record;
}

const TASK_KEYS = Object.keys(taskRecordSchema().shape);
const IMAGE_KEYS = Object.keys(taskRecordSchema().shape.images.element.shape);
const REQUEST_KEYS = Object.keys(taskRecordSchema().shape.request.shape);
const EXTRA_KEYS = ['unknown', 'constructor', 'toString', 'hasOwnProperty'];

/** One change to `record`: a field set to a hostile value, removed, or an unknown key added. */
function mutate(record: Json, next: () => number): string | null {
  const target = targetOf(record, next);
  const keys = [...TASK_KEYS, ...IMAGE_KEYS, ...REQUEST_KEYS, ...EXTRA_KEYS];
  const key = pick(next, keys);
  const roll = next();
  if (roll < 0.15) {
    Reflect.deleteProperty(target, key);
    return null;
  }
  if (roll < 0.3) {
    // A raw JSON value spliced in where JSON.stringify has no spelling for it.
    target[key] = '@@RAW@@';
    return pick(next, RAW);
  }
  target[key] = structuredClone(pick(next, HOSTILE));
  return null;
}

/** The record as the history reads it: JSON text parsed. */
function asRead(record: Json, raw: string | null): unknown {
  const text = JSON.stringify(record);
  return JSON.parse(raw === null ? text : text.replace('"@@RAW@@"', raw));
}

function expectSameAsSchema(input: unknown): boolean {
  const parsed = taskRecordSchema().safeParse(input);
  const plain = plainTaskRecord(input);
  if (plain !== undefined) {
    expect(parsed.success).toBe(true);
    expect(plain).toStrictEqual(parsed.data);
    // The same fields in the same order.
    expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed.data));
  }
  expect(parseTaskRecord(input)).toStrictEqual(parsed.success ? parsed.data : undefined);
  return plain !== undefined;
}

describe('the plain record check', () => {
  it("writes out the task's, the images' and the request's keys as the schema has them, in its order", () => {
    expect(CHECKED_TASK_KEYS).toEqual(TASK_KEYS);
    expect(CHECKED_IMAGE_KEYS).toEqual(IMAGE_KEYS);
    expect(CHECKED_REQUEST_KEYS).toEqual(REQUEST_KEYS);
  });

  it('returns what the schema returns for the records a library holds', () => {
    for (const record of storedShapes()) {
      const input = JSON.parse(JSON.stringify(record)) as unknown;
      // Every stored shape is one the check is sure of: no zod parse on the common path.
      expect(expectSameAsSchema(input)).toBe(true);
    }
  });

  it("fills an image's missing favourite as the schema's default does, in its place", () => {
    const record = JSON.parse(JSON.stringify(makeTaskRecord({ images: [makeImage(0)] }))) as Json;
    delete (record['images'] as Json[])[0]?.['favourite'];
    expect(expectSameAsSchema(record)).toBe(true);
    expect(plainTaskRecord(record)?.images[0]?.favourite).toBe(false);
  });

  it('refuses, as the schema does, a record whose images repeat an index', () => {
    const images = [makeImage(0), makeImage(1), makeImage(1)];
    const input = JSON.parse(JSON.stringify(makeTaskRecord({ images }))) as unknown;
    expect(plainTaskRecord(input)).toBeUndefined();
    expect(parseTaskRecord(input)).toBeUndefined();
    expect(taskRecordSchema().safeParse(input).success).toBe(false);
    // The same images, each index once, are a record the check is sure of.
    const once = JSON.parse(JSON.stringify(makeTaskRecord({ images: images.slice(0, 2) })));
    expect(expectSameAsSchema(once)).toBe(true);
  });

  it('leaves unknown keys out, __proto__ too, as the schema does', () => {
    const text = JSON.stringify(makeTaskRecord({ images: [makeImage(0)] }))
      .replace('{', '{"__proto__":{"polluted":1},"extra":1,')
      .replace('"request":{', '"request":{"__proto__":{"x":1},"negativePrompt":"n",');
    const input = JSON.parse(text) as unknown;
    expect(expectSameAsSchema(input)).toBe(true);
    expect(Object.hasOwn(plainTaskRecord(input) ?? {}, '__proto__')).toBe(false);
    expect(({} as Json)['polluted']).toBeUndefined();
  });

  it('answers as the schema does for every field of every place set to each crafted value', () => {
    let cases = 0;
    for (const shape of storedShapes()) {
      const places: [string, readonly string[]][] = [
        ['task', [...TASK_KEYS, ...EXTRA_KEYS]],
        ['request', [...REQUEST_KEYS, ...EXTRA_KEYS]],
        ['image', [...IMAGE_KEYS, ...EXTRA_KEYS]],
      ];
      for (const [place, keys] of places) {
        for (const key of keys) {
          for (const value of [...HOSTILE, undefined]) {
            const record = structuredClone(shape) as unknown as Json;
            const images = record['images'] as Json[];
            const target =
              place === 'task'
                ? record
                : place === 'request'
                  ? (record['request'] as Json)
                  : images[0];
            if (target === undefined) continue;
            // undefined: the field removed.
            if (value === undefined) Reflect.deleteProperty(target, key);
            else target[key] = structuredClone(value);
            expectSameAsSchema(asRead(record, null));
            cases += 1;
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(5_000);
  });

  it('answers as the schema does for 2,000 records changed in several places', () => {
    const shapes = storedShapes();
    let sure = 0;
    for (let seed = 1; seed <= 2_000; seed += 1) {
      const next = random(seed);
      const record = structuredClone(pick(next, shapes)) as unknown as Json;
      let raw: string | null = null;
      const changes = 1 + Math.floor(next() * 3);
      for (let change = 0; change < changes; change += 1) {
        raw = mutate(record, next) ?? raw;
      }
      // A second raw value would leave the first marker in place: the JSON stays valid.
      if (expectSameAsSchema(asRead(record, raw))) sure += 1;
    }
    // Many changes keep a record the check is sure of (an unknown key, a valid value).
    expect(sure).toBeGreaterThan(100);
  });

  it('hands records it does not check to the schema: cost, template, inputs, an error', () => {
    const withError = makeTaskRecord({
      status: 'failed',
      error: { kind: 'server', message: 'The service refused.' },
    });
    const withCost = { ...makeTaskRecord(), cost: { source: 'unknown' } };
    const badCost = { ...makeTaskRecord(), cost: 'free' };
    const withSeed = { ...makeTaskRecord(), request: { prompt: 'p', seed: 7 } };
    for (const record of [withError, withCost, badCost, withSeed]) {
      const input = JSON.parse(JSON.stringify(record)) as unknown;
      expect(plainTaskRecord(input)).toBeUndefined();
      expectSameAsSchema(input);
    }
  });
});
