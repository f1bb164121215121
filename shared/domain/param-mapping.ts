/**
 * A request's model options carried to another model (a compare's targets; any front that sends
 * one set of options to several models): each option goes under the name the target's schema
 * gives it (the same name, else the option with the same `common` hint: a negative prompt, a
 * number of images, guidance, steps…; an aspect ratio and a size stand in for each other, as a
 * ratio). A value the target does not offer or holds outside its range is not sent, and each
 * option left out is said in one catalogue sentence, so the compare dialog names it in the
 * window's language before anything is sent and the CLI in English. A sentence speaks of "this
 * model" and names no target: each front puts it under its own name of the target (the plan's
 * facts: the window's fanOutTargetName, the CLI's and the MCP server's label), so no English name
 * made by main stands in a sentence the window shows in another language.
 */
import { sentence, type Sentence } from '../i18n/sentence';
import {
  commonParam,
  paramProblem,
  type CommonParam,
  type ParamSchema,
  type ParamSpec,
  type ParamValue,
  type ParamValues,
} from './model-params';

/** One set of options and a seed, carried from the schema they were typed for to a target's. */
interface ParamCarry {
  /** The schema the options were typed for (the form's model); none: matched by name only. */
  readonly from: ParamSchema | undefined;
  /** The target model's schema; none: the target takes no options. */
  readonly to: ParamSchema | undefined;
  readonly params: ParamValues;
  readonly seed?: number | undefined;
}

/** What a target sends of the options, and a sentence per option it does not take. */
interface CarriedParams {
  readonly params: ParamValues;
  readonly seed?: number;
  readonly notes: readonly Sentence[];
}

/** The common hints that stand in for each other, in the order they are tried. */
const STANDS_IN: Readonly<Partial<Record<CommonParam, readonly CommonParam[]>>> = {
  aspect: ['aspect', 'size'],
  size: ['size', 'aspect'],
};

/**
 * The width over the height a value says: `16:9`, `1024x576`, fal's `landscape_16_9` and
 * `portrait_4_3` (3:4), `square`.
 */
function ratioOf(value: ParamValue): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^square(_hd)?$/.test(value)) return 1;
  const found = /(\d+(?:\.\d+)?)[:x×_](\d+(?:\.\d+)?)$/.exec(value);
  if (!found) return undefined;
  const [width, height] = [Number(found[1]), Number(found[2])];
  if (!(width > 0 && height > 0)) return undefined;
  // fal names its sizes by orientation: `portrait_16_9` is 9:16.
  if (value.startsWith('portrait_')) return Math.min(width, height) / Math.max(width, height);
  if (value.startsWith('landscape_')) return Math.max(width, height) / Math.min(width, height);
  return width / height;
}

/** `value` as one of `spec`'s choices: itself, or for a ratio, the first choice of that ratio. */
function asChoice(spec: ParamSpec, value: ParamValue, byRatio: boolean): ParamValue {
  if (spec.type !== 'enum' || spec.values.includes(value as string | number) || !byRatio)
    return value;
  const ratio = ratioOf(value);
  if (ratio === undefined) return value;
  const same = spec.values.find((choice) => {
    const other = ratioOf(choice);
    return other !== undefined && Math.abs(other - ratio) / ratio < 0.01;
  });
  return same ?? value;
}

/** The target's name for the option `name` of the source, and whether it is a ratio's stand-in. */
function targetName(
  carry: ParamCarry,
  name: string,
): { readonly name: string; readonly byRatio: boolean } | undefined {
  const common = carry.from?.params[name]?.common;
  if (carry.to && Object.hasOwn(carry.to.params, name))
    return { name, byRatio: common === 'aspect' || common === 'size' };
  if (common === undefined) return undefined;
  for (const hint of STANDS_IN[common] ?? [common]) {
    const found = commonParam(carry.to, hint);
    if (found !== undefined) return { name: found, byRatio: hint === 'aspect' || hint === 'size' };
  }
  return undefined;
}

/** `carry`'s options and seed as its target takes them, and what it does not take. */
export function carryParams(carry: ParamCarry): CarriedParams {
  const params: Record<string, ParamValue> = {};
  const notes: Sentence[] = [];
  for (const [name, asked] of Object.entries(carry.params)) {
    const found = targetName(carry, name);
    const spec = found && carry.to ? carry.to.params[found.name] : undefined;
    if (!found || !spec || Object.hasOwn(params, found.name)) {
      notes.push(sentence('error.compare.paramNotTaken', { name }));
      continue;
    }
    const value = asChoice(spec, asked, found.byRatio);
    if (paramProblem(found.name, spec, value)) {
      notes.push(sentence('error.compare.paramNotFit', { name, value: String(asked) }));
      continue;
    }
    params[found.name] = value;
  }
  const seed = carrySeed(carry, notes);
  return { params, notes, ...(seed === undefined ? {} : { seed }) };
}

function carrySeed(carry: ParamCarry, notes: Sentence[]): number | undefined {
  if (carry.seed === undefined) return undefined;
  const name = commonParam(carry.to, 'seed');
  const spec = name === undefined ? undefined : carry.to?.params[name];
  if (name === undefined || spec === undefined) {
    notes.push(sentence('error.compare.seedNotTaken'));
    return undefined;
  }
  if (paramProblem(name, spec, carry.seed)) {
    notes.push(
      sentence('error.compare.paramNotFit', {
        name,
        value: String(carry.seed),
      }),
    );
    return undefined;
  }
  return carry.seed;
}
