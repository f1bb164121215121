/**
 * A model's own options as Pictor reads them: a small subset of JSON Schema that the window can
 * render and the CLI can type (choices, whole numbers and numbers with a range and a step,
 * switches, bounded text), with defaults and a `common` hint that names the options every image
 * client shows first (aspect ratio or size, resolution tier, seed, negative prompt, …). Shipped
 * per model in model-param-schemas.ts; read from a service's published schema by
 * fetched-param-schema.ts. A request's `params` are checked against its model's schema before
 * anything is sent; a refused value is one catalogue sentence naming the option.
 */
import { z } from 'zod';
import { sentence, type Sentence } from '../i18n/sentence';
import {
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
  invisibleInWords,
} from '../text/control-characters';
import { lazySchema } from './lazy-schema';
import { isParamName } from './param-names';

/** The options image clients show first, in this order. */
export const COMMON_PARAMS = [
  'aspect',
  'size',
  'resolution',
  'seed',
  'negative',
  'count',
  'guidance',
  'steps',
  'format',
  'safety',
] as const;
export type CommonParam = (typeof COMMON_PARAMS)[number];

interface SpecBase {
  /** The service's own short description, shown as the control's hint (never translated). */
  readonly title?: string;
  readonly common?: CommonParam;
}

export type ParamValue = string | number | boolean;

export type ParamSpec =
  | (SpecBase & {
      readonly type: 'enum';
      readonly values: readonly (string | number)[];
      readonly default?: string | number;
    })
  | (SpecBase & {
      readonly type: 'integer' | 'number';
      readonly min: number;
      readonly max: number;
      readonly step?: number;
      readonly default?: number;
    })
  | (SpecBase & { readonly type: 'boolean'; readonly default?: boolean })
  | (SpecBase & { readonly type: 'string'; readonly maxLength: number; readonly default?: string });

/** One model's options, by the name the service documents. */
export interface ParamSchema {
  readonly params: Readonly<Record<string, ParamSpec>>;
}

/** At most this many options per model, and per request. */
export const MAX_PARAMS = 48;
/** Longest text option Pictor sends (a negative prompt). */
export const MAX_PARAM_TEXT = 4_000;

const paramValueSchema = () =>
  z.union([z.string().max(MAX_PARAM_TEXT), z.number().finite(), z.boolean()]);

/**
 * A request's options as the record keeps them (read back from disk: bounded). zod's record
 * skips an own `__proto__` key without asking its key schema, so a name it would refuse is
 * looked for first: an option named so is refused, not dropped in silence.
 */
const paramRecordSchema = () =>
  z
    .record(z.string().refine(isParamName), paramValueSchema())
    .refine((values) => Object.keys(values).length <= MAX_PARAMS, 'too many options');
type ParamRecordSchema = ReturnType<typeof paramRecordSchema>;
/** Built on first use (lazy-schema.ts): a command that reads no options builds none. */
export const paramValuesSchema = lazySchema(() =>
  z.preprocess<unknown, ParamRecordSchema, z.input<ParamRecordSchema>>((raw, context) => {
    if (raw !== null && typeof raw === 'object' && Object.hasOwn(raw, '__proto__')) {
      context.addIssue({ code: 'custom', message: 'An option may not be named __proto__.' });
    }
    return raw;
  }, paramRecordSchema()),
);
export type ParamValues = z.infer<ReturnType<typeof paramValuesSchema>>;

export type ParamCheck =
  | { readonly ok: true; readonly values: ParamValues }
  | { readonly ok: false; readonly problem: Sentence };

/**
 * Whether no two of a choice's `values` read alike as text (`1` and `"1"`, one listed twice, or
 * one spelled composed and the other decomposed: `café` and `cafe\u0301`): a command line's
 * `key=1` and the form's select name a choice by its text, so of two such the first was always
 * the one sent, whichever was copied or picked, and the form listed it twice.
 */
export function choicesApart(values: readonly (string | number)[]): boolean {
  return new Set(values.map((value) => String(value).normalize('NFC'))).size === values.length;
}

/**
 * What no choice or text default of an option may hold, wherever the option comes from (a
 * service's published schema, a file the user gives, the kept file of model-options.json, the
 * window's `models:` answers): a control (ESC starts the sequences a terminal obeys), a line or
 * paragraph separator, or a character that draws nothing (bidi and other format characters,
 * variation selectors, the Hangul fillers, U+034F: `hd` and `hd\u3164` show alike, and the text
 * a user reads and types is not the text that is sent). `pictor models show` prints them, the
 * form lists them.
 */
const UNSHOWN = anyOf([CONTROL_CHARACTERS, LINE_SEPARATORS], 'u');

/**
 * Whether `text` may be an option's choice or text default (see {@link UNSHOWN}): what words are
 * made of stays (an emoji's joiner and selector, `❤️`, a flag, a Persian half space), by the rule
 * tags, board names and file names follow (`invisibleInWords`).
 */
export function shownOptionText(text: string): boolean {
  return !UNSHOWN.test(text) && !invisibleInWords().test(text);
}

/**
 * How far from a whole multiple of its step a number may be and still be on it: a decimal step
 * (0.1) is no exact binary fraction, so 0.3 / 0.1 is 2.9999999999999996. A decimal value on a
 * decimal step, both read as doubles, lies off the step's nearest multiple by at most a unit in
 * the value's last place (2⁻⁵² of it): the slack is four of those ({@link VALUE_SLACK_SHARE}), and
 * at least {@link STEP_SLACK} of a step. The distance is the remainder of the two doubles, which
 * is exact, not the quotient's fraction: a slack counted in the quotient (a 1e-9 share of the
 * multiple at first, then 2⁻⁴⁰) reached half a step at a multiple of 5e8, then of 2³⁹, and let
 * every value through from there (`12345678.905` on a step of 0.01, `600.0000000005` on a step of
 * 1e-9, `1099511627776.5` on a step of 1); now half a step is reached only past 2⁴⁹ multiples.
 */
const STEP_SLACK = 1e-9;
const VALUE_SLACK_SHARE = 2 ** -50;

/** Whether `value` is a whole multiple of `step` (JSON Schema's `multipleOf`, counted from 0). */
function onStep(value: number, step: number): boolean {
  const rest = Math.abs(value % step);
  const off = Math.min(rest, step - rest);
  return off <= Math.max(STEP_SLACK * step, Math.abs(value) * VALUE_SLACK_SHARE);
}

type NumberSpec = Extract<ParamSpec, { type: 'integer' | 'number' }>;

/** Why `value` is not a number `spec` takes (in its range, whole if so, on its step), or null. */
function numberProblem(name: string, spec: NumberSpec, value: ParamValue): Sentence | null {
  const { min, max, step } = spec;
  if (
    typeof value !== 'number' ||
    !(value >= min && value <= max) ||
    (spec.type === 'integer' && !Number.isInteger(value))
  ) {
    const key = spec.type === 'integer' ? 'error.params.notWhole' : 'error.params.outOfRange';
    return sentence(key, { name, min, max });
  }
  if (step !== undefined && !onStep(value, step)) {
    return sentence('error.params.offStep', { name, min, max, step });
  }
  return null;
}

/** Why `value` does not fit `spec`, or null when it does. */
export function paramProblem(name: string, spec: ParamSpec, value: ParamValue): Sentence | null {
  switch (spec.type) {
    case 'enum':
      return spec.values.includes(value as string | number)
        ? null
        : sentence('error.params.notChoice', { name, choices: spec.values.join(', ') });
    case 'boolean':
      return typeof value === 'boolean' ? null : sentence('error.params.notSwitch', { name });
    case 'string':
      return typeof value === 'string' && value.length <= spec.maxLength
        ? null
        : sentence('error.params.tooLong', { name, max: spec.maxLength });
    default:
      return numberProblem(name, spec, value);
  }
}

/**
 * The sentence for an option `model` does not have; a request that names no model (a service
 * with no default one) has no options at all, and is told to name one.
 */
export function unknownOption(name: string, model: string): Sentence {
  return model.trim() === ''
    ? sentence('error.params.unknownNoModel', { name })
    : sentence('error.params.unknown', { name, model });
}

/** `values` checked against `schema` (`model` names it in the sentence for an unknown option). */
export function checkParams(
  schema: ParamSchema | undefined,
  model: string,
  values: ParamValues,
): ParamCheck {
  for (const [name, value] of Object.entries(values)) {
    const spec = schema && Object.hasOwn(schema.params, name) ? schema.params[name] : undefined;
    if (spec === undefined) return { ok: false, problem: unknownOption(name, model) };
    const problem = paramProblem(name, spec, value);
    if (problem) return { ok: false, problem };
  }
  return { ok: true, values };
}

/**
 * A number as a command line writes it: decimal, with an exponent as JavaScript writes a small
 * one (`String(1e-7)` is `1e-7`; "Copy as command" and `models show` print numbers so, and the
 * CLI refused the line it printed). No hex, no `Infinity`, no spaces.
 */
const DECIMAL = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/**
 * The value a command line's `key=value` text means for `spec`: a choice as listed (a number
 * choice as its number), `true`/`false` for a switch, a decimal number (an exponent allowed) for a
 * number; text as is.
 * Undefined when the text cannot be one (checkParams then says why).
 */
export function paramFromText(spec: ParamSpec, text: string): ParamValue | undefined {
  switch (spec.type) {
    case 'enum':
      return spec.values.find((choice) => String(choice) === text);
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'string':
      return text;
    default:
      return DECIMAL.test(text) ? Number(text) : undefined;
  }
}

/** The name of `schema`'s option with the `common` hint, if it has one. */
export function commonParam(
  schema: ParamSchema | undefined,
  common: CommonParam,
): string | undefined {
  if (!schema) return undefined;
  return Object.keys(schema.params).find((name) => schema.params[name]?.common === common);
}

/** `schema`'s option names, the common ones first (in COMMON_PARAMS' order), then the rest. */
export function orderedParams(schema: ParamSchema): string[] {
  const rank = (name: string): number => {
    const common = schema.params[name]?.common;
    return common === undefined ? COMMON_PARAMS.length : COMMON_PARAMS.indexOf(common);
  };
  return Object.keys(schema.params).sort((a, b) => rank(a) - rank(b));
}
