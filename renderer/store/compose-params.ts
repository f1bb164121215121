/**
 * The compose form's model options as data: the schema of the model the draft names
 * (shared/domain/model-param-schemas.ts), the options as typed (text, remembered per service and
 * model), their values and why the model refuses one. Every value is read with the functions the
 * CLI and the engine use (paramFromText, paramProblem, checkParams in shared/domain/model-params.ts):
 * one home, so the form names before sending exactly what main would refuse.
 */
import { paramSchemaOf } from '../../shared/domain/model-param-schemas';
import {
  commonParam,
  paramFromText,
  paramProblem,
  type ParamSchema,
  type ParamSpec,
  type ParamValues,
} from '../../shared/domain/model-params';
import type { ProviderId } from '../../shared/domain/providers';
import type { Sentence } from '../../shared/i18n/sentence';
import type { ComposeDraft } from './compose-draft';

/** Options as typed, by option name (a switch as `true`/`false`, a choice as its text). */
export type TypedParams = Readonly<Record<string, string>>;

/** Where a draft keeps one model's typed options: its service and its model. */
export function paramsKey(provider: ProviderId, model: string): string {
  return `${provider} ${model.trim()}`;
}

/** The schema of the draft's model on its service, as the engine reads it (the name as typed). */
export function draftSchema(
  draft: Pick<ComposeDraft, 'provider' | 'model'>,
): ParamSchema | undefined {
  return paramSchemaOf(draft.provider, draft.model.trim());
}

/** The options typed for the draft's model (none yet: an empty set). */
export function typedParams(draft: ComposeDraft): TypedParams {
  const key = paramsKey(draft.provider, draft.model);
  return Object.hasOwn(draft.params, key) ? (draft.params[key] ?? {}) : {};
}

/** `typed` for the draft's model, kept beside every other model's. */
export function withTypedParams(draft: ComposeDraft, typed: TypedParams): ComposeDraft['params'] {
  return { ...draft.params, [paramsKey(draft.provider, draft.model)]: typed };
}

/** A number as typed in a language that writes `1,5`: read with a point, as the CLI takes it. */
function asWritten(spec: ParamSpec, text: string, decimalMark: string): string {
  const numeric = spec.type === 'number' || spec.type === 'integer';
  return numeric && decimalMark !== '.' ? text.trim().replace(decimalMark, '.') : text.trim();
}

/** One option as typed: its value, or the sentence that says why the model refuses it. */
function readTyped(
  name: string,
  spec: ParamSpec,
  text: string,
  decimalMark = '.',
): { readonly value: string | number | boolean } | { readonly problem: Sentence } {
  const written = spec.type === 'string' ? text : asWritten(spec, text, decimalMark);
  const value = paramFromText(spec, written);
  // Text that reads as no value of the option's kind is refused as such (as the CLI refuses it).
  const problem = paramProblem(name, spec, value ?? written);
  if (problem) return { problem };
  return { value: value ?? written };
}

interface DraftParams {
  /** The options to send: those typed (an empty field is the model's default). */
  readonly values: ParamValues;
  /** Why the model refuses an option, by name. */
  readonly problems: Readonly<Record<string, Sentence>>;
}

/**
 * The draft's options for its model: the typed ones read by their specs. The model's seed is the
 * seed field's (the request's own `seed`), never one of these.
 */
export function draftParams(draft: ComposeDraft, decimalMark = '.'): DraftParams {
  const schema = draftSchema(draft);
  const values: Record<string, string | number | boolean> = {};
  const problems: Record<string, Sentence> = {};
  if (!schema) return { values, problems };
  const seedName = commonParam(schema, 'seed');
  for (const [name, text] of Object.entries(typedParams(draft))) {
    const spec = Object.hasOwn(schema.params, name) ? schema.params[name] : undefined;
    if (spec === undefined || name === seedName || text.trim() === '') continue;
    const read = readTyped(name, spec, text, decimalMark);
    if ('value' in read) values[name] = read.value;
    else problems[name] = read.problem;
  }
  return { values, problems };
}

/** The seed field as sent: none when empty or when the model takes none; else its value or why not. */
export function draftSeed(
  draft: ComposeDraft,
): { readonly seed?: number } | { readonly problem: Sentence } {
  const schema = draftSchema(draft);
  const name = commonParam(schema, 'seed');
  const spec = name === undefined ? undefined : schema?.params[name];
  if (name === undefined || spec === undefined || draft.seed.trim() === '') return {};
  const read = readTyped(name, spec, draft.seed);
  return 'value' in read ? { seed: read.value as number } : read;
}
