/**
 * A model's options read from the schema its service publishes: fal's per-model OpenAPI (the
 * POST body of the model's path) or a Replicate version's `openapi_schema` (its
 * `components.schemas.Input`). Both are hostile input: the text is bounded, so are its depth and
 * its node count; a `$ref` is followed only inside `#/components/schemas/`, a few links deep and
 * never in a loop; only the kinds model-params.ts can render are kept (a choice, a bounded number,
 * a switch, bounded text); every other keyword, and the inputs Pictor sends itself (the prompt,
 * image links, webhooks, sync mode), are dropped. Undefined: nothing Pictor can use. A file the user
 * gives for a service of their own (which publishes none) is read the same way: a JSON Schema
 * object whose `properties` are the options, or an OpenAPI document with `components.schemas.Input`.
 */
import {
  MAX_PARAMS,
  MAX_PARAM_TEXT,
  type CommonParam,
  type ParamSchema,
  type ParamSpec,
  type ParamValue,
} from './model-params';
import { shownTitle, soundSpec } from './param-spec-rule';
import { isParamName } from './param-names';
import { isPlainObject } from './plain-object';
import type { ProviderId } from './providers';

/** Where a schema came from: a service's publication, or a file the user gave (an own service's). */
export type SchemaSource = 'fal' | 'replicate' | 'file';

/**
 * The services whose models' options are published where Pictor can read them (the window's
 * "Refresh options" and a model's first use, in the form and in `pictor generate`).
 */
export const PUBLISHING_SERVICES: ReadonlySet<ProviderId> = new Set<ProviderId>([
  'fal',
  'replicate',
]);

/** Largest schema text read, in characters. */
export const MAX_SCHEMA_CHARS = 512 * 1024;
const MAX_DEPTH = 32;
const MAX_NODES = 50_000;
const MAX_REF_HOPS = 8;

type Json = Record<string, unknown>;

/** Inputs Pictor fills itself, or never sends as an option. */
const OWN_INPUTS =
  /^(prompt|sync_mode|webhook\w*|image_urls?|mask_url|image_input|input_image\w*|image|mask|image_prompt\w*)$|_url$/;

const COMMON_BY_NAME: Readonly<Record<string, CommonParam>> = {
  aspect_ratio: 'aspect',
  image_size: 'size',
  size: 'size',
  resolution: 'resolution',
  seed: 'seed',
  negative_prompt: 'negative',
  num_images: 'count',
  num_outputs: 'count',
  number_of_images: 'count',
  max_images: 'count',
  guidance_scale: 'guidance',
  guidance: 'guidance',
  cfg: 'guidance',
  num_inference_steps: 'steps',
  steps: 'steps',
  output_format: 'format',
  safety_tolerance: 'safety',
  enable_safety_checker: 'safety',
  disable_safety_checker: 'safety',
  safety_filter_level: 'safety',
};

function objectOf(value: unknown): Json | undefined {
  return isPlainObject(value) ? value : undefined;
}

/** Whether `value` stays within the depth and node bounds (walked without recursion). */
function bounded(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return false;
    if (typeof node === 'object' && node !== null) {
      for (const child of Object.values(node)) stack.push([child, depth + 1]);
    }
  }
  return true;
}

/** What a property says beside its `$ref` (Cog puts the default there): kept over the target's. */
const CARRIED = ['default', 'title', 'description'] as const;

/**
 * The keywords this reader looks at. A node reached is read as these alone, never copied whole:
 * every option of a hostile schema may lead to one node of tens of thousands of keys, and a copy
 * per option made a 430 KB schema cost main's thread 110 s
 * (tests/hardening/hostile/schema-reading-work.test.ts).
 */
const KEYWORDS = [
  ...CARRIED,
  'type',
  'enum',
  'minimum',
  'maximum',
  'multipleOf',
  'format',
  'maxLength',
  'properties',
] as const;
/** Most entries of a nullable `anyOf` looked at (`[X, {type: null}]` has two). */
const MAX_ANY_OF = 4;

/** The keywords of `node` this reader uses, and nothing else of it. */
function keywordsOf(node: Json): Json {
  const picked: Json = {};
  for (const key of KEYWORDS) if (Object.hasOwn(node, key)) picked[key] = node[key];
  const anyOf = node['anyOf'];
  if (Array.isArray(anyOf) && anyOf.length <= MAX_ANY_OF) picked['anyOf'] = anyOf;
  return picked;
}

/**
 * `node` with its `$ref` (and a single `allOf` of one) followed inside the document, as the
 * keywords this reader uses (keywordsOf).
 */
function resolved(root: Json, node: unknown): Json | undefined {
  let current = objectOf(node);
  const carried: Json = {};
  const seen = new Set<string>();
  for (let hop = 0; current && hop <= MAX_REF_HOPS; hop++) {
    for (const key of CARRIED) {
      if (current[key] !== undefined && !Object.hasOwn(carried, key)) carried[key] = current[key];
    }
    const allOf = current['allOf'];
    if (Array.isArray(allOf) && allOf.length === 1) {
      current = objectOf(allOf[0]);
      continue;
    }
    const ref = current['$ref'];
    if (ref === undefined) return { ...keywordsOf(current), ...carried };
    if (typeof ref !== 'string' || seen.has(ref)) return undefined;
    const match = /^#\/components\/schemas\/([A-Za-z0-9_.-]{1,128})$/.exec(ref);
    if (!match) return undefined;
    seen.add(ref);
    const schemas = objectOf(objectOf(root['components'])?.['schemas']);
    const name = match[1] as string;
    current = schemas && Object.hasOwn(schemas, name) ? objectOf(schemas[name]) : undefined;
  }
  return undefined;
}

/** A nullable `anyOf: [X, {type: null}]` as X (a longer `anyOf` was left out by keywordsOf). */
function unwrapNullable(root: Json, node: Json): Json {
  const anyOf = node['anyOf'];
  if (!Array.isArray(anyOf)) return node;
  const kept = anyOf.map((entry) => resolved(root, entry)).filter((e) => e && e['type'] !== 'null');
  return kept.length === 1 ? { ...node, ...kept[0], anyOf: undefined } : node;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' &&
    Number.isFinite(value) &&
    Math.abs(value) <= Number.MAX_SAFE_INTEGER
    ? value
    : undefined;
}

/** A property's `enum` as a choice that keeps the rule of options (param-spec-rule.ts), if it is. */
function choiceOf(value: unknown): ParamSpec | undefined {
  if (!Array.isArray(value)) return undefined;
  const typed = value.every((v) => typeof v === 'string' || typeof v === 'number');
  const spec: ParamSpec = { type: 'enum', values: value as (string | number)[] };
  return typed && soundSpec(spec) ? spec : undefined;
}

/**
 * The kind of one property, without its default, title and hint; undefined: not renderable. The
 * option it makes is held to the rule of options after (specOf).
 */
function kindOf(node: Json): ParamSpec | undefined {
  const choice = choiceOf(node['enum']);
  if (choice) return choice;
  switch (node['type']) {
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
    case 'number': {
      const type = node['type'];
      const min = finite(node['minimum']) ?? (type === 'integer' ? 0 : -Number.MAX_SAFE_INTEGER);
      const max = finite(node['maximum']) ?? Number.MAX_SAFE_INTEGER;
      const step = finite(node['multipleOf']);
      return { type, min, max, ...(step !== undefined && step > 0 ? { step } : {}) };
    }
    case 'string': {
      if (node['format'] !== undefined) return undefined;
      const max = finite(node['maxLength']);
      return { type: 'string', maxLength: Math.min(max ?? MAX_PARAM_TEXT, MAX_PARAM_TEXT) };
    }
    default:
      return undefined;
  }
}

function titleOf(node: Json): string | undefined {
  const title = node['title'] ?? node['description'];
  return typeof title === 'string' ? shownTitle(title) : undefined;
}

/**
 * One property as an option, or undefined when Pictor cannot render it or it breaks the rule of
 * options (param-spec-rule.ts): a range that holds no value it takes, a maximum text length that
 * is no length. A default that breaks it is left out, the option kept.
 */
function specOf(root: Json, name: string, raw: unknown): ParamSpec | undefined {
  const node = resolved(root, raw);
  if (!node) return undefined;
  const plain = unwrapNullable(root, node);
  const kind = kindOf(plain);
  if (!kind) return undefined;
  const title = titleOf(plain);
  const common = Object.hasOwn(COMMON_BY_NAME, name) ? COMMON_BY_NAME[name] : undefined;
  const spec = { ...kind, ...(title ? { title } : {}), ...(common ? { common } : {}) } as ParamSpec;
  const fallback = plain['default'] as ParamValue | undefined;
  const given = ['string', 'number', 'boolean'].includes(typeof fallback)
    ? ({ ...spec, default: fallback } as ParamSpec)
    : spec;
  if (soundSpec(given)) return given;
  return soundSpec(spec) ? spec : undefined;
}

/** The input object of a fal OpenAPI document: the first POST body's schema. */
function falInput(root: Json): Json | undefined {
  const paths = objectOf(root['paths']) ?? {};
  for (const [path, item] of Object.entries(paths).slice(0, 16)) {
    if (path.includes('/requests/')) continue;
    const body = objectOf(objectOf(objectOf(item)?.['post'])?.['requestBody']);
    const schema = objectOf(objectOf(body?.['content'])?.['application/json'])?.['schema'];
    if (schema !== undefined) return resolved(root, schema);
  }
  return undefined;
}

/** The OpenAPI document inside what `source` answered (Replicate: a model's or a version's). */
function documentOf(root: Json, source: SchemaSource): Json {
  if (source !== 'replicate') return root;
  const version = objectOf(root['latest_version']) ?? root;
  return objectOf(version['openapi_schema']) ?? root;
}

/** The input object: fal's POST body, a Cog `Input`, or (a file) the schema itself. */
function inputOf(document: Json, source: SchemaSource): Json | undefined {
  if (source === 'fal') return falInput(document);
  const input = objectOf(objectOf(document['components'])?.['schemas'])?.['Input'];
  if (input !== undefined || source === 'replicate') return resolved(document, input);
  return resolved(document, document);
}

/** The options in a schema `source` published (or a file holds), read as hostile input. */
export function readFetchedSchema(text: string, source: SchemaSource): ParamSchema | undefined {
  if (text.length > MAX_SCHEMA_CHARS) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const root = objectOf(parsed);
  if (!root || !bounded(root)) return undefined;
  const document = documentOf(root, source);
  const properties = objectOf(inputOf(document, source)?.['properties']);
  if (!properties) return undefined;
  const params: Record<string, ParamSpec> = {};
  for (const [name, raw] of Object.entries(properties)) {
    if (Object.keys(params).length >= MAX_PARAMS) break;
    if (!isParamName(name) || OWN_INPUTS.test(name)) continue;
    const spec = specOf(document, name, raw);
    if (spec) params[name] = spec;
  }
  return Object.keys(params).length > 0 ? { params } : undefined;
}
