/**
 * A parsed template (template-language.ts) turned into prompts, without ever enumerating more
 * than it returns.
 *
 * Counting: text and variables count 1, a list its words, a choice the sum of its alternatives, a
 * sequence the product of its parts, in bigints (10 lists of 1,000 words are 10^30 prompts,
 * counted at once). The prompts are numbered 0…count−1 in a mixed radix whose leftmost choice
 * varies slowest, and each number is decoded through the choice tree on its own, so:
 *
 * - combinatorial mode lists prompts 0, 1, 2… (refused past `limit`, with the exact count), and
 * - random mode draws distinct numbers with mulberry32 (a 32-bit PRNG of `Math.imul` and shifts,
 *   the same on every machine) seeded with `seed`, uniformly by rejection, and decodes them, in
 *   the order drawn; when the template has no more prompts than asked for, it gives them all,
 *   in combinatorial order.
 *
 * A prompt is finished by collapsing every run of spaces (U+0020) into one and trimming spaces,
 * tabs and line breaks from its ends; line breaks inside stay. A variable's value is used when
 * the caller gives one (even empty), else its first default; `{{prompt}}` is the prompt box,
 * or its default when the box is blank. A list word is text, never read as template.
 */
import { templateError, type TemplateError } from './template-errors';
import {
  exceedsCharacters,
  PROMPT_VARIABLE,
  templateReferences,
  templateVariables,
  type ParsedTemplate,
  type TemplateNode,
  type TemplateResult,
  type TemplateSequence,
} from './template-language';

export type TemplateLists = ReadonlyMap<string, readonly string[]>;

export interface TemplateContext {
  /** The form's values, by variable name. */
  readonly values: Readonly<Record<string, string>>;
  /** What the user typed in the prompt box: `{{prompt}}`. */
  readonly prompt: string;
  readonly lists: TemplateLists;
}

export type ExpansionMode =
  | { readonly kind: 'combinatorial' }
  | { readonly kind: 'random'; readonly count: number; readonly seed: number };

/** How many prompts one expansion may give unless the caller says otherwise. */
const DEFAULT_PROMPT_LIMIT = 100;
/** The longest prompt, in characters (code points). */
const MAX_PROMPT_CHARS = 32_000;
/** Past this many UTF-16 units before finishing, a prompt cannot come back under the limit. */
const MAX_RAW_UNITS = MAX_PROMPT_CHARS * 8;

type Counts = Map<TemplateNode | TemplateSequence, bigint>;

function countSequence(sequence: TemplateSequence, lists: TemplateLists, counts: Counts): bigint {
  let product = 1n;
  for (const node of sequence) {
    let count = 1n;
    if (node.kind === 'list') count = BigInt(lists.get(node.name)?.length ?? 0);
    if (node.kind === 'choice') {
      count = node.alternatives.reduce((sum, one) => sum + countSequence(one, lists, counts), 0n);
    }
    counts.set(node, count);
    product *= count;
  }
  counts.set(sequence, product);
  return product;
}

/** The first list the template uses that `lists` lacks or holds no word in. */
function listProblem(template: ParsedTemplate, lists: TemplateLists): TemplateError | null {
  for (const node of templateReferences(template)) {
    if (node.kind !== 'list') continue;
    const words = lists.get(node.name);
    if (words === undefined || words.length === 0) {
      const code = words === undefined ? 'unknownList' : 'emptyList';
      return templateError(code, template.body, node.offset, { name: node.name });
    }
  }
  return null;
}

/** How many distinct prompts the template gives with these lists, counted, not listed. */
export function countPrompts(
  template: ParsedTemplate,
  lists: TemplateLists,
): TemplateResult<{ count: bigint }> {
  const problem = listProblem(template, lists);
  if (problem) return { ok: false, error: problem };
  return { ok: true, count: countSequence(template.sequence, lists, new Map()) };
}

/** Every variable's text, or the first variable with neither a value nor a default. */
function resolveValues(
  template: ParsedTemplate,
  context: TemplateContext,
): TemplateResult<{ values: Map<string, string> }> {
  const values = new Map<string, string>();
  const defaults = new Map(templateVariables(template).map((one) => [one.name, one.defaultValue]));
  for (const node of templateReferences(template)) {
    if (node.kind !== 'variable' || values.has(node.name)) continue;
    if (node.name === PROMPT_VARIABLE) {
      const blank = context.prompt.trim() === '' && node.defaultValue !== undefined;
      values.set(node.name, blank ? (node.defaultValue ?? '') : context.prompt);
      continue;
    }
    const value = Object.hasOwn(context.values, node.name)
      ? context.values[node.name]
      : defaults.get(node.name);
    if (value === undefined) {
      const error = templateError('missingValue', template.body, node.offset, { name: node.name });
      return { ok: false, error };
    }
    values.set(node.name, value);
  }
  return { ok: true, values };
}

interface Decoder {
  readonly counts: Counts;
  readonly lists: TemplateLists;
  readonly values: Map<string, string>;
  readonly pieces: string[];
  units: number;
}

function emit(decoder: Decoder, piece: string): void {
  decoder.pieces.push(piece);
  decoder.units += piece.length;
}

/** Appends the text of prompt number `index` of `sequence` (leftmost part varies slowest). */
function decode(decoder: Decoder, sequence: TemplateSequence, index: bigint): void {
  const digits: bigint[] = new Array<bigint>(sequence.length);
  let rest = index;
  for (let at = sequence.length - 1; at >= 0; at -= 1) {
    const count = decoder.counts.get(sequence[at] as TemplateNode) ?? 1n;
    digits[at] = rest % count;
    rest /= count;
  }
  sequence.forEach((node, at) => {
    if (decoder.units > MAX_RAW_UNITS) return;
    const digit = digits[at] ?? 0n;
    if (node.kind === 'text') emit(decoder, node.text);
    else if (node.kind === 'variable') emit(decoder, decoder.values.get(node.name) ?? '');
    else if (node.kind === 'list')
      emit(decoder, decoder.lists.get(node.name)?.[Number(digit)] ?? '');
    else decodeChoice(decoder, node.alternatives, digit);
  });
}

function decodeChoice(
  decoder: Decoder,
  alternatives: readonly TemplateSequence[],
  index: bigint,
): void {
  let rest = index;
  for (const alternative of alternatives) {
    const count = decoder.counts.get(alternative) ?? 0n;
    if (rest < count) return decode(decoder, alternative, rest);
    rest -= count;
  }
}

const TRIMMED = new Set([' ', '\t', '\r', '\n']);

/** Runs of spaces as one, the ends trimmed (by hand: a trimming regex backtracks on long runs). */
function finish(text: string): string {
  const collapsed = text.replace(/ {2,}/g, ' ');
  let start = 0;
  let end = collapsed.length;
  while (start < end && TRIMMED.has(collapsed[start] as string)) start += 1;
  while (end > start && TRIMMED.has(collapsed[end - 1] as string)) end -= 1;
  return collapsed.slice(start, end);
}

/** The prompts numbered `indexes`, finished and checked. */
function promptsAt(
  template: ParsedTemplate,
  base: Omit<Decoder, 'pieces' | 'units'>,
  indexes: readonly bigint[],
): TemplateResult<{ prompts: string[] }> {
  const prompts: string[] = [];
  for (const index of indexes) {
    const decoder: Decoder = { ...base, pieces: [], units: 0 };
    decode(decoder, template.sequence, index);
    const number = prompts.length + 1;
    const prompt = decoder.units > MAX_RAW_UNITS ? null : finish(decoder.pieces.join(''));
    if (prompt === null || exceedsCharacters(prompt, MAX_PROMPT_CHARS)) {
      const values = { number, limit: MAX_PROMPT_CHARS };
      return { ok: false, error: templateError('resultTooLong', template.body, 0, values) };
    }
    if (prompt === '') {
      return { ok: false, error: templateError('emptyResult', template.body, 0, { number }) };
    }
    prompts.push(prompt);
  }
  return { ok: true, prompts };
}

/** mulberry32: a deterministic stream of 32-bit unsigned integers from a 32-bit seed. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return (mixed ^ (mixed >>> 14)) >>> 0;
  };
}

/** A uniform number in [0, below), by rejection over just enough random bits. */
function uniformBelow(next: () => number, below: bigint): bigint {
  const bits = BigInt((below - 1n).toString(2).length);
  const mask = (1n << bits) - 1n;
  for (;;) {
    let drawn = 0n;
    for (let have = 0n; have < bits; have += 32n) drawn = (drawn << 32n) | BigInt(next());
    drawn &= mask;
    if (drawn < below) return drawn;
  }
}

/** `wanted` distinct numbers below `count` (which is larger), in the order drawn. */
function drawDistinct(count: bigint, wanted: number, seed: number): bigint[] {
  const next = mulberry32(seed);
  const drawn = new Set<bigint>();
  while (drawn.size < wanted) drawn.add(uniformBelow(next, count));
  return [...drawn];
}

function firstNumbers(count: bigint): bigint[] {
  return Array.from({ length: Number(count) }, (_, index) => BigInt(index));
}

/** Which prompts `mode` asks for, or why it cannot have them. */
function chosenNumbers(
  body: string,
  count: bigint,
  mode: ExpansionMode,
  limit: number,
): TemplateResult<{ numbers: bigint[] }> {
  if (mode.kind === 'combinatorial') {
    if (count <= BigInt(limit)) return { ok: true, numbers: firstNumbers(count) };
    const values = { count: count.toString(), limit };
    return { ok: false, error: templateError('tooManyPrompts', body, 0, values) };
  }
  if (!Number.isInteger(mode.count) || mode.count < 1 || mode.count > limit) {
    return { ok: false, error: templateError('badCount', body, 0, { limit }) };
  }
  if (count <= BigInt(mode.count)) return { ok: true, numbers: firstNumbers(count) };
  return { ok: true, numbers: drawDistinct(count, mode.count, mode.seed) };
}

/** The prompts `template` gives in `context`, as `mode` asks, at most `limit` of them. */
export function expandTemplate(
  template: ParsedTemplate,
  context: TemplateContext,
  mode: ExpansionMode,
  limit = DEFAULT_PROMPT_LIMIT,
): TemplateResult<{ prompts: string[] }> {
  const problem = listProblem(template, context.lists);
  if (problem) return { ok: false, error: problem };
  const resolved = resolveValues(template, context);
  if (!resolved.ok) return resolved;
  const counts: Counts = new Map();
  const count = countSequence(template.sequence, context.lists, counts);
  const chosen = chosenNumbers(template.body, count, mode, limit);
  if (!chosen.ok) return chosen;
  const base = { counts, lists: context.lists, values: resolved.values };
  return promptsAt(template, base, chosen.numbers);
}

/** A fresh seed for random mode: a 32-bit unsigned integer from the platform's CSPRNG. */
export function newTemplateSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
}
