/**
 * Hostile building blocks shared by the hostile-input suites: huge strings (up to ~1 MB),
 * control characters, lone surrogates, prototype keys as own properties, deep nesting.
 */
import fc from 'fast-check';

const MEGABYTE = 1024 * 1024;

/**
 * Built once: slicing is cheap, generating a megabyte per run is not. The pieces, piece `i`
 * repeated 1 + i % 7 times, come round every 70 pieces: one round joined, then repeated (a
 * megabyte of `+=` took seconds of the suites' import on a loaded machine).
 */
const HUGE_TEXT = (() => {
  const pieces = [
    'a',
    'Ω',
    '\u0000',
    '\u001b[31m',
    '\uD800',
    '😀',
    '../',
    '%2e%2e%2f',
    '<b>',
    '\\',
  ];
  const round = Array.from({ length: 70 }, (_, index) =>
    pieces[index % pieces.length]!.repeat(1 + (index % 7)),
  ).join('');
  return round.repeat(Math.ceil(MEGABYTE / round.length)).slice(0, MEGABYTE);
})();

/** Strings of the generated lengths (at most a megabyte): plain, or the mixed hostile text. */
export function hugeStringOf(lengths: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return fc.oneof(
    lengths.map((length) => 'x'.repeat(length)),
    lengths.map((length) => HUGE_TEXT.slice(0, length)),
  );
}

/** The surrogate halves' code points, which fast-check's `binary` unit leaves out. */
const SURROGATE_START = 0xd800;
const SURROGATE_COUNT = 0xe000 - SURROGATE_START;

/**
 * One code point, any but a surrogate half: fast-check's `binary` string unit drawn the same way
 * (a nat over the 1,112,064 code points, the same index to the same code point, so a seed draws
 * the same strings), with an unmapper that computes the index. fast-check's own unmaps through a
 * reverse map of every code point, built in each process the first time a string arbitrary is
 * made with that unit (its slices of known-dangerous strings are read back through it): 0.74 s of
 * CPU on a 2-core machine, paid by every hostile file at import.
 */
const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - SURROGATE_COUNT }).map(
  (index) => String.fromCodePoint(index < SURROGATE_START ? index : index + SURROGATE_COUNT),
  (value) => {
    const code = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (code === undefined || String.fromCodePoint(code) !== value)
      throw new Error('not one code point');
    if (code >= SURROGATE_START && code < SURROGATE_START + SURROGATE_COUNT)
      throw new Error('a surrogate half');
    return code < SURROGATE_START ? code : code - SURROGATE_COUNT;
  },
);

/** `fc.string({ unit: 'binary', … })`, the same strings, without its reverse map (see above). */
export function binaryString(constraints: { minLength?: number; maxLength?: number } = {}) {
  return fc.string({ ...constraints, unit: binaryUnit });
}

/** Strings of 10 kB up to ~1 MB (plain, or the mixed hostile text). */
export const hugeString: fc.Arbitrary<string> = hugeStringOf(
  fc.integer({ min: 10_000, max: MEGABYTE }),
);

export const controlString: fc.Arbitrary<string> = fc.string({
  unit: fc
    .integer({ min: 0, max: 0x9f })
    .map((code) => String.fromCharCode(code < 0x20 || code > 0x7e ? code : code % 0x20)),
  minLength: 1,
  maxLength: 40,
});

export const loneSurrogates: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 10 }),
    fc.integer({ min: 0xd800, max: 0xdfff }),
    fc.string({ maxLength: 10 }),
  )
  .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`);

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Any hostile string: the above, plus path tricks and ordinary unicode. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: binaryString({ maxLength: 50 }), weight: 3 },
  { arbitrary: controlString, weight: 2 },
  { arbitrary: loneSurrogates, weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\t\n',
      '../../etc/passwd',
      '..%2f',
      '%00',
      'null',
      'NaN',
      ...PROTO_KEYS,
    ),
    weight: 2,
  },
  { arbitrary: hugeString, weight: 1 },
);

/**
 * Nested `depth` levels deep, as arrays or objects (built in a loop: no recursion here). At most
 * 1 000 levels, so the test's own JSON.stringify copes; deeper JSON is generated as text.
 */
export const deepNesting: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 50, max: 1_000 }), fc.boolean())
  .map(([depth, asArray]) => {
    let value: unknown = 'bottom';
    for (let level = 0; level < depth; level += 1) value = asArray ? [value] : { a: value };
    return value;
  });

/** Leaves that are the wrong type almost everywhere (including what structured clone carries). */
export const oddLeaf: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, Number.MAX_SAFE_INTEGER + 2, 1e308, 0.5),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom(null, undefined),
  fc.bigInt(),
  fc.constant(new Date(Number.NaN)),
  fc.uint8Array({ maxLength: 8 }),
  fc.constant(new Map([['localId', 'a']])),
);

/** JSON text of any generated value (BigInts as strings; no replacer unless needed: deep values). */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return (
      JSON.stringify(value, (_key, item: unknown) =>
        typeof item === 'bigint' ? String(item) : item,
      ) ?? 'null'
    );
  }
}

/**
 * The last junk written as JSON, and its text: a payload's objects all get the same junk
 * (ipc-inputs' `sprinkleUnknown`), which may hold a megabyte string; writing it once per payload
 * instead of once per object was a tenth of that suite's CPU.
 */
let lastJunk: { readonly junk: unknown; readonly text: string } | undefined;

function junkJson(junk: unknown): string {
  if (lastJunk === undefined || !Object.is(lastJunk.junk, junk)) {
    lastJunk = { junk, text: toJson(junk ?? { polluted: true }) };
  }
  return lastJunk.text;
}

/** An own `__proto__` / `constructor` / `prototype` key holding junk, made with JSON.parse. */
export function withProtoKeys(value: unknown, junk: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const text = junkJson(junk);
  const extra = JSON.parse(
    `{"__proto__":${text},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}`,
  ) as Record<string, unknown>;
  const copy: Record<string, unknown> = JSON.parse('{}') as Record<string, unknown>;
  for (const [name, item] of Object.entries(value))
    Object.defineProperty(copy, name, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const [name, item] of Object.entries(extra))
    Object.defineProperty(copy, name, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

/** Any structure of odd leaves, arrays and objects with hostile keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    oddLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        hostileString.filter((key) => key.length < 200),
        fc.constantFrom(...PROTO_KEYS),
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** Whether Object.prototype (or Array.prototype) gained anything. */
export function prototypeSnapshot(): string {
  return JSON.stringify([
    Object.getOwnPropertyNames(Object.prototype).sort(),
    Object.getOwnPropertyNames(Array.prototype).sort(),
    ({} as Record<string, unknown>)['polluted'] ?? null,
  ]);
}
