/**
 * Derives fast-check arbitraries of valid values from the contract's zod (v4) schemas, so a new
 * IPC channel gets generated payloads without anyone writing them, and a schema shape this file
 * does not understand fails the suite instead of being skipped.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { mainMessages } from '../../../shared/i18n/main-messages';
import { sentenceSchema } from '../../../shared/i18n/sentence';
import { imageInputsSchema, type ImageInputs } from '../../../shared/domain/image-inputs';
import { DEFAULT_WORKFLOW } from '../../../shared/domain/comfy-prompt';
import { comfyWorkflowSchema } from '../../../shared/domain/comfy-workflow';

type Schema = z.ZodType;

interface Def {
  readonly type: string;
  readonly checks?: readonly { _zod: { def: Record<string, unknown> } }[];
  readonly shape?: Record<string, Schema>;
  readonly catchall?: Schema;
  readonly innerType?: Schema;
  readonly element?: Schema;
  readonly options?: readonly Schema[];
  readonly entries?: Record<string, string>;
  readonly values?: readonly unknown[];
  readonly in?: Schema;
  readonly out?: Schema;
  readonly keyType?: Schema;
  readonly valueType?: Schema;
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function checks(schema: Schema): Record<string, unknown>[] {
  return (defOf(schema).checks ?? []).map((check) => check._zod.def);
}

function bound(schema: Schema, name: 'min_length' | 'max_length'): number | undefined {
  const found = checks(schema).find((check) => check['check'] === name);
  const value = found?.[name === 'min_length' ? 'minimum' : 'maximum'];
  return typeof value === 'number' ? value : undefined;
}

/** Most values in a row a generator may draw that its schema refuses before the suite says so. */
const MAX_REFUSED_IN_A_ROW = 10_000;

/**
 * `base`'s values that `schema` accepts. A filter fast-check draws from until one passes: one no
 * value of `base` can pass (a format the deriver does not generate) would draw for ever and hang
 * the whole run, so after {@link MAX_REFUSED_IN_A_ROW} refusals in a row it throws, naming `what`
 * (described only then).
 */
function accepted<T>(base: fc.Arbitrary<T>, schema: Schema, what: () => string): fc.Arbitrary<T> {
  let refused = 0;
  return base.filter((value) => {
    if (schema.safeParse(value).success) {
      refused = 0;
      return true;
    }
    refused += 1;
    if (refused > MAX_REFUSED_IN_A_ROW) {
      const why = schema.safeParse(value).error?.issues[0]?.message ?? '';
      throw new Error(
        `zod-arbitrary: ${String(MAX_REFUSED_IN_A_ROW)} ${what()} values in a row were refused by their schema (the last: ${JSON.stringify(value)}, ${why}); teach the deriver its checks`,
      );
    }
    return false;
  });
}

/** Whether `schema` has a check of its own code (a `refine` or `superRefine`). */
function refined(schema: Schema): boolean {
  return checks(schema).some((check) => check['check'] === 'custom');
}

/**
 * A task's image inputs: drawn by their shape, then made to hold together as the schema's
 * refinement asks (a mask at its source's size, a fill with a mask, an upscale with a factor),
 * which random draws almost never are.
 */
function imageInputsArbitrary(def: Def): fc.Arbitrary<unknown> {
  const fitted = objectArbitrary(def).map((drawn) => {
    const inputs = drawn as ImageInputs;
    const { width, height } = inputs.source;
    const sized = <T extends object | undefined>(mask: T): T =>
      mask === undefined ? mask : { ...mask, width, height };
    const mask = sized(inputs.mask) ?? (inputs.operation === 'fill' ? inputs.source : undefined);
    return {
      ...inputs,
      ...(mask === undefined ? {} : { mask }),
      ...(inputs.maskAlpha === undefined ? {} : { maskAlpha: sized(inputs.maskAlpha) }),
      ...(inputs.operation === 'upscale' ? { factor: inputs.factor ?? 2 } : {}),
    };
  });
  return accepted(fitted, imageInputsSchema() as Schema, () => 'image inputs');
}

/**
 * A ComfyUI workflow with its map: the map must name inputs its graph has (the schema's own
 * refinement), which a graph drawn at random almost never does; so ComfyUI's default graph with
 * the prompt mapped and any of its other roles, each to the input it names there.
 */
function comfyWorkflowArbitrary(): fc.Arbitrary<unknown> {
  const { prompt, ...others } = DEFAULT_WORKFLOW.map;
  const drawn = fc.subarray(Object.entries(others)).map((kept) => ({
    graph: DEFAULT_WORKFLOW.graph,
    map: { prompt, ...Object.fromEntries(kept) },
  }));
  return accepted(drawn, comfyWorkflowSchema() as Schema, () => 'ComfyUI workflow');
}

function describeChecks(schema: Schema): string {
  return JSON.stringify(checks(schema), (_, value: unknown) =>
    value instanceof RegExp ? String(value) : value,
  );
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  // A regex check, or a format zod checks by its pattern (a UUID, an email): drawn from it.
  // A format schema (z.uuid()) holds its pattern in its own definition.
  const own = (defOf(schema) as unknown as Record<string, unknown>)['pattern'];
  const regex =
    own instanceof RegExp
      ? own
      : checks(schema).find((check) => check['pattern'] instanceof RegExp)?.['pattern'];
  const minLength = bound(schema, 'min_length') ?? 0;
  const maxLength = Math.min(bound(schema, 'max_length') ?? 60, 60);
  const base =
    regex instanceof RegExp
      ? fc.stringMatching(regex)
      : fc.oneof(
          fc.string({ minLength, maxLength }),
          fc.string({ minLength, maxLength, unit: 'grapheme' }),
        );
  return accepted(base, schema, () => `string (checks ${describeChecks(schema)})`);
}

function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  let min = -1e9;
  let max = 1e9;
  let integer = false;
  for (const check of checks(schema)) {
    if (check['format'] === 'safeint') integer = true;
    if (check['check'] === 'greater_than') min = Math.max(min, Number(check['value']));
    if (check['check'] === 'less_than') max = Math.min(max, Number(check['value']));
  }
  const base = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return accepted(base, schema, () => 'number');
}

/** Whether an object may leave this field out: optional, defaulted, or caught around either. */
function mayBeAbsent(field: Schema): boolean {
  const def = defOf(field);
  if (def.type === 'optional' || def.type === 'default') return true;
  return def.type === 'catch' && mayBeAbsent(def.innerType as Schema);
}

function objectArbitrary(def: Def): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [name, field] of Object.entries(shape)) {
    model[name] = validArbitrary(field);
    if (!mayBeAbsent(field)) requiredKeys.push(name);
  }
  return fc.record(model, { requiredKeys });
}

/** A record (a template's values by name): a few keys of its key type, each value of its own. */
function recordArbitrary(schema: Schema, def: Def): fc.Arbitrary<unknown> {
  const keys = validArbitrary(def.keyType as Schema).filter(
    (key): key is string => typeof key === 'string',
  );
  const values = validArbitrary(def.valueType as Schema);
  return accepted(fc.dictionary(keys, values, { maxKeys: 4 }), schema, () => 'record');
}

/**
 * A sentence of the main catalogue: a known key (values left out: a record takes any key, so the
 * unknown fields the suite sprinkles in would change what it means, not be dropped).
 */
const sentenceArbitrary = fc.record({ key: fc.constantFrom(...Object.keys(mainMessages)) });

/**
 * The arbitraries derived so far, by schema. Building one is most of its cost (fast-check
 * tokenizes its dangerous strings against every string and pattern arbitrary it builds: 3 of
 * 12 s of CPU in ipc-inputs), and the contract's channels share their field schemas (an id, a
 * name, a sentence); an arbitrary is a pure description of its draws, so one built once draws
 * the same values from the same seed as a fresh one.
 */
const derived = new WeakMap<Schema, fc.Arbitrary<unknown>>();

/**
 * An arbitrary of values `schema` accepts (each one re-checked with the schema itself).
 * @throws Error naming the zod type when the schema uses one this deriver does not know.
 */
export function validArbitrary(schema: Schema): fc.Arbitrary<unknown> {
  let arbitrary = derived.get(schema);
  if (arbitrary === undefined) {
    arbitrary = deriveArbitrary(schema);
    derived.set(schema, arbitrary);
  }
  return arbitrary;
}

function deriveArbitrary(schema: Schema): fc.Arbitrary<unknown> {
  // A catalogue sentence's key must be a known one (a refinement no string generator meets).
  if (schema === (sentenceSchema() as Schema)) return sentenceArbitrary;
  const def = defOf(schema);
  if (schema === (imageInputsSchema() as Schema)) return imageInputsArbitrary(def);
  if (schema === (comfyWorkflowSchema() as Schema)) return comfyWorkflowArbitrary();
  switch (def.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'null':
      return fc.constant(null);
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'optional':
    case 'default':
      return fc.option(validArbitrary(def.innerType as Schema), { nil: undefined });
    case 'nullable':
      return fc.option(validArbitrary(def.innerType as Schema), { nil: null });
    case 'array': {
      const maxLength = Math.min(bound(schema, 'max_length') ?? 4, 4);
      const minLength = Math.min(bound(schema, 'min_length') ?? 0, maxLength);
      const drawn = fc.array(validArbitrary(def.element as Schema), { minLength, maxLength });
      // A refined list (each service named once) keeps only the draws it accepts.
      return refined(schema) ? accepted(drawn, schema, () => 'refined list') : drawn;
    }
    case 'union':
      return fc.oneof(...(def.options ?? []).map(validArbitrary));
    case 'pipe':
      // The values its shape takes that the whole pipe accepts: a gate in front (a z.custom or
      // z.preprocess check) passes some; a narrower output (a name cleaned, then at least one
      // character: shownNameSchema) refuses some of its input's.
      return accepted(validArbitrary(pipeShape(def)), schema, () => 'piped');
    // A caught field takes anything (a bad value becomes the fallback); what its inner type
    // accepts is what a sender would mean.
    case 'catch':
    case 'readonly':
      return validArbitrary(def.innerType as Schema);
    case 'object':
      return refined(schema)
        ? accepted(objectArbitrary(def), schema, () => 'refined object')
        : objectArbitrary(def);
    case 'record':
      return recordArbitrary(schema, def);
    default:
      throw new Error(`zod-arbitrary: no arbitrary for zod type "${def.type}"`);
  }
}

/**
 * The schema a pipe's values are shaped by: its input's, unless that is a gate (a `z.custom`
 * check in front, as the contract's bound on a step's images), whose output's is.
 */
function pipeShape(def: Def): Schema {
  const into = def.in as Schema;
  // A z.custom gate, or a z.preprocess check (a transform that passes its value on): the output.
  const gate = defOf(into).type;
  return gate === 'custom' || gate === 'transform' ? (def.out as Schema) : into;
}

/**
 * The schema a wrapper reads its value by (optional, default, nullable, catch, readonly: the inner type; a
 * pipe: its shape), or undefined for a schema that wraps nothing. Shared by the walkers below,
 * so a wrapper one of them knows the other does too.
 */
function unwrapped(def: Def): Schema | undefined {
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'catch':
    case 'readonly':
      return def.innerType as Schema;
    case 'pipe':
      return pipeShape(def);
    default:
      return undefined;
  }
}

/**
 * `value` with `add` applied to every object in it whose schema is an object's (its fields known
 * by name), walking the schema beside the value: arrays item by item, a record's values by its
 * value type (its keys are data: nothing is added to it), unions by the first option that
 * accepts the value.
 */
export function withUnknownFields(
  schema: Schema,
  value: unknown,
  add: (object: Record<string, unknown>) => unknown,
): unknown {
  const def = defOf(schema);
  if (value === null || typeof value !== 'object') return value;
  const inner = unwrapped(def);
  if (inner) return withUnknownFields(inner, value, add);
  switch (def.type) {
    case 'array':
      return Array.isArray(value)
        ? value.map((item) => withUnknownFields(def.element as Schema, item, add))
        : value;
    case 'union': {
      const option = (def.options ?? []).find((one) => one.safeParse(value).success);
      return option === undefined ? value : withUnknownFields(option, value, add);
    }
    case 'record':
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          withUnknownFields(def.valueType as Schema, item, add),
        ]),
      );
    case 'object': {
      const shape = def.shape ?? {};
      const fields = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [
          name,
          Object.hasOwn(shape, name) ? withUnknownFields(shape[name] as Schema, item, add) : item,
        ]),
      );
      return add(fields);
    }
    default:
      return value;
  }
}

/**
 * Paths in `value` that `schema` does not name (unknown object keys, at any depth). Empty when
 * the value holds only fields the schema knows, which is what a stripped parse must produce.
 */
export function unknownKeyPaths(schema: Schema, value: unknown, path = '$'): string[] {
  const def = defOf(schema);
  if (value === null || typeof value !== 'object') return [];
  // A caught field (a record's compare, its template) is walked too: it was not before.
  const inner = unwrapped(def);
  if (inner) return unknownKeyPaths(inner, value, path);
  switch (def.type) {
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item, index) =>
            unknownKeyPaths(def.element as Schema, item, `${path}[${index}]`),
          )
        : [];
    case 'union':
      return (def.options ?? []).every((option) => unknownKeyPaths(option, value, path).length)
        ? [path]
        : [];
    case 'object': {
      const shape = def.shape ?? {};
      return Object.keys(value).flatMap((name) =>
        Object.hasOwn(shape, name)
          ? unknownKeyPaths(
              shape[name] as Schema,
              (value as Record<string, unknown>)[name],
              `${path}.${name}`,
            )
          : [`${path}.${name}`],
      );
    }
    default:
      return [];
  }
}
