/**
 * generate's options of the model's own: `--param key=value` (repeatable), `--seed N`,
 * `--negative TEXT`, `--aspect 16:9`, `--resolution 2K`, each typed by the model's schema
 * (shared/domain/model-param-schemas.ts) and refused with a sentence (exit 2) when the model has
 * no such option or refuses the value; and `--like REF [--vary]`, which repeats a task's request.
 */
import { paramSchemaOf } from '../../shared/domain/model-param-schemas';
import {
  checkParams,
  commonParam,
  paramFromText,
  paramProblem,
  type CommonParam,
  type ParamSchema,
  type ParamValues,
} from '../../shared/domain/model-params';
import type { ProviderId } from '../../shared/domain/providers';
import { englishText, sentence } from '../../shared/i18n/sentence';
import { UsageError } from '../core/command-line';

export const PARAM_OPTIONS = {
  param: { type: 'string', multiple: true },
  negative: { type: 'string' },
  aspect: { type: 'string' },
  resolution: { type: 'string' },
  like: { type: 'string' },
  vary: { type: 'boolean' },
} as const;

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
    throw new UsageError(englishText(sentence('error.params.unknown', { name, model })));
  }
  const value = paramFromText(spec, raw);
  const problem = paramProblem(name, spec, value ?? raw);
  if (value === undefined || problem) {
    throw new UsageError(englishText(problem ?? sentence('error.params.unknown', { name, model })));
  }
  params[name] = value;
}

/** The seed --seed names, when the model takes one. */
function seedOf(schema: ParamSchema | undefined, model: string, text: string | undefined) {
  if (text === undefined) return {};
  if (commonParam(schema, 'seed') === undefined) {
    throw new UsageError(`The model ${model} takes no seed: leave out --seed.`);
  }
  const seed = /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(seed)) {
    throw new UsageError('--seed takes a whole number from 0 to 9007199254740991.');
  }
  return { seed };
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
