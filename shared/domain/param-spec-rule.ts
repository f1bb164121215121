/**
 * The one rule of a model's option, whoever wrote it: a schema a service published or a file the
 * user gave (fetched-param-schema.ts keeps what passes, a default that fails left out), and the
 * kept file `model-options.json` or the window's `models:` answers (param-specs-schema.ts leaves
 * out the entry). An option passes when the form can offer it and a request can send what it
 * offers: at most {@link MAX_CHOICES} choices, each shown as it is sent (model-params.ts's
 * shownOptionText) and apart from the others; numbers within ±2⁵³; a range that holds a value it
 * takes (not `min > max`, a whole number in a whole-number range, a multiple of its step); text of
 * at most MAX_PARAM_TEXT characters; a default it takes itself (paramProblem); a title with no
 * control, format or separator character.
 */
import {
  choicesApart,
  MAX_PARAM_TEXT,
  paramProblem,
  shownOptionText,
  type ParamSpec,
} from './model-params';

/** Most choices an option lists, and the longest choice (UTF-16 units). */
const MAX_CHOICES = 64;
const MAX_CHOICE_CHARS = 64;
/** The longest title (the service's own description) an option keeps. */
const MAX_TITLE_CHARS = 200;
/** What a title is never shown with (a published one has each made a space). */
const TITLE_UNSHOWN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * A service's description of an option as it is kept: no control or format character, bounded,
 * cut at a whole character (never half a surrogate pair) and trimmed after the cut. What it
 * gives, read again, is itself: {@link soundSpec} keeps a title only when it is, so a cut that
 * left a space at the end dropped the whole option of a schema whose description ran past
 * {@link MAX_TITLE_CHARS} with a space there.
 */
export function shownTitle(raw: string): string | undefined {
  let clean = raw.replace(TITLE_UNSHOWN, ' ').trim();
  if (clean.length > MAX_TITLE_CHARS) {
    const cut = clean.slice(0, MAX_TITLE_CHARS);
    const last = cut.charCodeAt(cut.length - 1);
    clean = (last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut).trimEnd();
  }
  return clean === '' ? undefined : clean;
}

/** A finite number JavaScript holds exactly as a whole one would be (within ±2⁵³). */
function bounded(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER;
}

function choiceShown(value: string | number): boolean {
  if (typeof value === 'number') return bounded(value);
  return value.length <= MAX_CHOICE_CHARS && shownOptionText(value);
}

type NumberSpec = Extract<ParamSpec, { type: 'integer' | 'number' }>;

/**
 * Whether a number option's range holds a value it takes: its lowest (whole, for a whole-number
 * option), or the first multiple of its step from there.
 */
function rangeHolds(spec: NumberSpec): boolean {
  if (!(spec.min <= spec.max)) return false;
  const lowest = spec.type === 'integer' ? Math.ceil(spec.min) : spec.min;
  const step = spec.step ?? 1;
  const onStep = Math.ceil(lowest / step) * step;
  return [lowest, onStep, onStep + step].some((value) => paramProblem('', spec, value) === null);
}

/** Whether the option's kind is one the form can offer (see the file's comment). */
function kindSound(spec: ParamSpec): boolean {
  switch (spec.type) {
    case 'enum':
      return (
        spec.values.length >= 1 &&
        spec.values.length <= MAX_CHOICES &&
        spec.values.every(choiceShown) &&
        choicesApart(spec.values)
      );
    case 'string':
      return (
        Number.isInteger(spec.maxLength) && spec.maxLength >= 0 && spec.maxLength <= MAX_PARAM_TEXT
      );
    case 'boolean':
      return true;
    default: {
      const { min, max, step } = spec;
      const steps = step === undefined || (bounded(step) && step > 0);
      return bounded(min) && bounded(max) && steps && rangeHolds(spec);
    }
  }
}

/** Whether `spec` is an option every front can offer and send (see the file's comment). */
export function soundSpec(spec: ParamSpec): boolean {
  if (spec.title !== undefined && shownTitle(spec.title) !== spec.title) return false;
  if (!kindSound(spec)) return false;
  const fallback = spec.default;
  if (fallback === undefined) return true;
  if (typeof fallback === 'string' && !shownOptionText(fallback)) return false;
  return paramProblem('', spec, fallback) === null;
}
