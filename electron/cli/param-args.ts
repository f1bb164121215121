/**
 * generate's options of the model's own: `--param key=value` (repeatable), `--seed N`,
 * `--negative TEXT`, `--aspect 16:9`, `--resolution 2K`, each typed by the model's schema
 * (shared/domain/model-param-schemas.ts) and refused with a sentence (exit 2) when the model has
 * no such option or refuses the value; and `--like REF [--vary]`, which repeats a task's request.
 * A compare's `--param` and `--seed` (and the MCP tool's) are typed the same way, for its first
 * target's model.
 */
import { paramSchemaOf } from '../../shared/domain/model-param-schemas';
import {
  checkParams,
  commonParam,
  paramFromText,
  paramProblem,
  unknownOption,
  type CommonParam,
  type ParamSchema,
  type ParamValues,
} from '../../shared/domain/model-params';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { englishText } from '../../shared/i18n/sentence';
import { UsageError } from '../core/command-line';
import type { CompareInput } from '../core/compare';

/** The values this file reads (a subset of the library commands' options). */
export interface ParamValuesIn {
  readonly param?: string[];
  readonly negative?: string;
  readonly aspect?: string;
  readonly resolution?: string;
  readonly seed?: string;
}

/** What the options add to the request. */
export interface RequestParams {
  readonly params?: ParamValues;
  readonly seed?: number;
}

const SHORTCUTS: readonly [keyof ParamValuesIn, CommonParam, string][] = [
  ['negative', 'negative', 'negative prompt'],
  ['aspect', 'aspect', 'aspect ratio'],
  ['resolution', 'resolution', 'resolution tier'],
];

/** `key=value` read into `params` by the schema's type of `key`. */
function putParam(
  schema: ParamSchema | undefined,
  model: string,
  text: string,
  params: ParamValues,
): void {
  const at = text.indexOf('=');
  if (at < 1) throw new UsageError('--param takes key=value (--param num_inference_steps=20).');
  const name = text.slice(0, at).trim();
  const raw = text.slice(at + 1);
  const spec = schema && Object.hasOwn(schema.params, name) ? schema.params[name] : undefined;
  if (spec === undefined) {
    throw new UsageError(englishText(unknownOption(name, model)));
  }
  const value = paramFromText(spec, raw);
  const problem = paramProblem(name, spec, value ?? raw);
  if (value === undefined || problem) {
    throw new UsageError(englishText(problem ?? unknownOption(name, model)));
  }
  params[name] = value;
}

/**
 * --seed's whole number.
 * @throws UsageError when it is not one from 0 to the largest safe integer.
 */
export function seedFromText(text: string): number {
  const seed = /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(seed)) {
    throw new UsageError('--seed takes a whole number from 0 to 9007199254740991.');
  }
  return seed;
}

/** The seed --seed names, when the model takes one. */
function seedOf(schema: ParamSchema | undefined, model: string, text: string | undefined) {
  if (text === undefined) return {};
  if (commonParam(schema, 'seed') === undefined) {
    throw new UsageError(`The model ${model} takes no seed: leave out --seed.`);
  }
  return { seed: seedFromText(text) };
}

/**
 * The request's options from the command line, for `model` on `provider`.
 * @throws UsageError with the sentence that says which option the model refuses, and why.
 */
export function requestParamsOf(
  values: ParamValuesIn,
  provider: ProviderId,
  model: string,
): RequestParams {
  const schema = paramSchemaOf(provider, model);
  const params: ParamValues = {};
  for (const text of values.param ?? []) putParam(schema, model, text, params);
  for (const [option, common, what] of SHORTCUTS) {
    const text = values[option];
    if (typeof text !== 'string') continue;
    const name = commonParam(schema, common);
    if (name === undefined)
      throw new UsageError(`The model ${model} takes no ${what}: leave out --${option}.`);
    putParam(schema, model, `${name}=${text}`, params);
  }
  const checked = checkParams(schema, model, params);
  if (!checked.ok) throw new UsageError(englishText(checked.problem));
  const seed = seedOf(schema, model, values.seed);
  return { ...(Object.keys(params).length > 0 ? { params } : {}), ...seed };
}

/** The options a compare asks of every target, as the core's compare takes them. */
type CompareOptions = NonNullable<CompareInput['options']>;

/** A compare's first target: the options are typed for its model. */
interface FirstTarget {
  readonly provider: ProviderId;
  readonly model?: string | undefined;
}

/**
 * A compare's model options and seed (the MCP tool's `params` and `seed`): checked against its
 * first target's model, as the window checks them against the form's model; the core's compare
 * then carries them to each target under its own names and says what a target does not take
 * (param-mapping.ts). The seed is for every target that takes one. Undefined: none given.
 * @throws UsageError with the sentence that says which option the first target's model refuses.
 */
export function compareOptionsOf(
  typed: { readonly params?: ParamValues | undefined; readonly seed?: number | undefined },
  first: FirstTarget,
): CompareOptions | undefined {
  if (typed.params === undefined && typed.seed === undefined) return undefined;
  const model = first.model ?? PROVIDERS[first.provider].defaultModel ?? '';
  const params = typed.params ?? {};
  const checked = checkParams(paramSchemaOf(first.provider, model), model, params);
  if (!checked.ok) throw new UsageError(englishText(checked.problem));
  return {
    provider: first.provider,
    ...(model === '' ? {} : { model }),
    ...(Object.keys(params).length > 0 ? { params } : {}),
    ...(typed.seed === undefined ? {} : { seed: typed.seed }),
  };
}

/** `pictor compare`'s `--param` (typed by the first target's model's schema) and `--seed`. */
export function compareOptionsFromText(
  values: { readonly param?: readonly string[] | undefined; readonly seed?: string | undefined },
  first: FirstTarget,
): CompareOptions | undefined {
  const model = first.model ?? PROVIDERS[first.provider].defaultModel ?? '';
  const { params } =
    values.param === undefined
      ? { params: undefined }
      : requestParamsOf({ param: [...values.param] }, first.provider, model);
  const seed = values.seed === undefined ? undefined : seedFromText(values.seed);
  return compareOptionsOf({ params: params ?? (values.param ? {} : undefined), seed }, first);
}
