/**
 * Smart boards: saved filters that list the images matching their rules, whatever board (if any)
 * they are in. The rules are a top level `{ match, items }` whose items are rules or groups of
 * rules (`{ match, rules }`, one level deep: a group holds no group), each level joined with AND
 * (`all`) or OR (`any`); at most {@link MAX_SMART_RULES} rules in all. A rule tests one thing of
 * an image: words of its prompt, its service, its model, its date, rating, flag, tags, board (or
 * none), what its task cost, its Content Credentials, its size.
 *
 * Rules come from the window ("Save as smart board"), the CLI and the history's own table, so
 * {@link checkSmartRules} checks them here, once, for every front: the structure through the
 * schema, then each value with a sentence (tags and board paths by the rules of names,
 * shared/domain/triage.ts; a range needs a bound, its lowest not above its highest). A name is a
 * board's name ({@link checkSmartBoardName}), unique among smart boards whatever its case.
 *
 * A rule naming a tag no image has any more, or a board since deleted, stays as it was written:
 * {@link reportRules} says which (the window strikes it through) and the board still opens, the
 * rule matching what a filter on that name matches, nothing.
 */
import { z } from 'zod';
import type { Sentence } from '../i18n/sentence';
import { sentence, sentenceSchema } from '../i18n/sentence';
import { dateMsSchema, MAX_IMAGE_BYTES, MAX_SEARCH_CHARS, REQUEST_LIMITS } from './limits';
import { isPlainObject } from './plain-object';
import type { ServiceId } from './service-id';
import { oneServiceForm, serviceRuleSchema } from './smart-service-rule';
import { costUnitSchema, MAX_TASK_COST_MICROS } from './task-cost';
import {
  checkBoardPath,
  checkTag,
  MAX_RATING,
  MAX_TAGS_PER_IMAGE,
  type TriageFlag,
} from './triage';

/** Rules of one smart board, groups' rules included. */
const MAX_SMART_RULES = 20;
/** Smart boards of one library. */
export const MAX_SMART_BOARDS = 1_000;
/** A tag or board path as a rule holds it before it is checked: more is damage. */
const MAX_RAW_NAME_CHARS = 1_000;

const MATCHES = ['all', 'any'] as const;
/** `all`: every rule (AND); `any`: at least one (OR). */
export type SmartMatch = (typeof MATCHES)[number];

const bound = (max: number) => z.number().int().min(0).max(max).optional();

/**
 * What Content Credentials a rule asks for: any manifest at all (`present`) or none (`absent`),
 * or the verdict of Pictor's verification (shared/domain/content-credentials.ts `verdictKind`).
 */
const CREDENTIAL_TESTS = [
  'present',
  'absent',
  'trusted',
  'unverified',
  'tampered',
  'unreadable',
] as const;

/** One rule's schema (a kind and its values), before {@link checkSmartRules}'s checks. */
function ruleSchema() {
  return z.discriminatedUnion('kind', [
    /** Every word in the prompt, anywhere, any case (the gallery's search). */
    z.strictObject({ kind: z.literal('prompt'), words: z.string().max(MAX_SEARCH_CHARS) }),
    /** A service, in either of its forms (smart-service-rule.ts). */
    serviceRuleSchema(),
    /** The model the service said it used, else the one asked for. */
    z.strictObject({ kind: z.literal('model'), model: z.string().max(REQUEST_LIMITS.model) }),
    /** The task's creation, in ms, both ends inclusive. */
    z.strictObject({
      kind: z.literal('date'),
      from: dateMsSchema().optional(),
      to: dateMsSchema().optional(),
    }),
    z.strictObject({
      kind: z.literal('rating'),
      op: z.enum(['=', '>=', '<=']),
      value: z.number().int().min(0).max(MAX_RATING),
    }),
    z.strictObject({ kind: z.literal('flag'), flag: z.enum(['pick', 'reject', 'none']) }),
    z.strictObject({
      kind: z.literal('tags'),
      mode: z.enum(['any', 'all', 'none']),
      tags: z.array(z.string().max(MAX_RAW_NAME_CHARS)).max(MAX_TAGS_PER_IMAGE),
    }),
    /** The board's own images (not those of the boards inside it), by path. */
    z.strictObject({ kind: z.literal('board'), board: z.string().max(MAX_RAW_NAME_CHARS) }),
    /** Images in no board. */
    z.strictObject({ kind: z.literal('unfiled') }),
    /**
     * What the image's task cost (every image of a task costs what the task did), in millionths
     * of `unit` as the ledger keeps amounts; a task with no amount, or one in another unit, fails.
     */
    z.strictObject({
      kind: z.literal('cost'),
      unit: costUnitSchema(),
      min: bound(MAX_TASK_COST_MICROS),
      max: bound(MAX_TASK_COST_MICROS),
    }),
    z.strictObject({
      kind: z.literal('credentials'),
      verdict: z.enum(CREDENTIAL_TESTS),
    }),
    /** Pixels wide or tall, or the file's bytes; an image whose size is not known fails. */
    z.strictObject({
      kind: z.literal('size'),
      measure: z.enum(['width', 'height', 'bytes']),
      min: bound(MAX_IMAGE_BYTES),
      max: bound(MAX_IMAGE_BYTES),
    }),
  ]);
}

/**
 * The schemas of smart boards, built on their first use, not when this file loads: a start that
 * reads no smart board's rules (a one-record command, which loads the history and so this file)
 * does not build them.
 */
function buildSchemas() {
  const matchSchema = z.enum(MATCHES);
  const rule = ruleSchema();
  const group = z.strictObject({ match: matchSchema, rules: z.array(rule) });
  return {
    rule,
    group,
    rules: z.strictObject({ match: matchSchema, items: z.array(z.union([rule, group])) }),
    rulesInput: z.strictObject({
      match: matchSchema,
      items: z
        .array(z.union([rule, group.extend({ rules: z.array(rule).max(MAX_SMART_RULES) })]))
        .max(MAX_SMART_RULES),
    }),
    ruleReport: z.object({ rule, missing: z.boolean(), problems: z.array(sentenceSchema()) }),
    level: z.strictObject({ match: matchSchema, items: z.array(z.unknown()) }),
    rawGroup: z.strictObject({ match: matchSchema, rules: z.array(z.unknown()) }),
  };
}

let built: ReturnType<typeof buildSchemas> | null = null;
const schemas = () => (built ??= buildSchemas());

/** A smart board's rules (see the file's comment); {@link checkSmartRules} before use. */
export const smartRulesSchema = () => schemas().rules;
/**
 * The rules as the window sends them: each list at most {@link MAX_SMART_RULES} long, so a page
 * cannot hand main an unbounded list (the core's check then counts every rule, in groups too).
 */
export const smartRulesInputSchema = () => schemas().rulesInput;
/** A rule with what it names that is gone, as the window gets it (see {@link RuleReport}). */
export const ruleReportSchema = () => schemas().ruleReport;

export type SmartRule = z.infer<ReturnType<typeof ruleSchema>>;
export type SmartGroup = z.infer<ReturnType<typeof buildSchemas>['group']>;
export type SmartItem = SmartRule | SmartGroup;
export type SmartRules = z.infer<ReturnType<typeof smartRulesSchema>>;

/** Rules checked: their stored form, or the sentence saying what is wrong. */
export type RulesCheck =
  | { readonly ok: true; readonly rules: SmartRules }
  | { readonly ok: false; readonly problem: Sentence };

export function isGroup(item: SmartItem): item is SmartGroup {
  return 'rules' in item;
}

/** The raw rules of each item (a rule alone is a list of one), or the sentence. */
function rawRules(raw: unknown): unknown[][] | Sentence {
  const level = schemas().level.safeParse(raw);
  if (!level.success) return sentence('error.triage.smartRulesInvalid');
  const lists: unknown[][] = [];
  for (const item of level.data.items) {
    if (isPlainObject(item) && 'items' in item) return sentence('error.triage.smartNestedGroup');
    if (!isPlainObject(item) || !('rules' in item)) {
      lists.push([item]);
      continue;
    }
    const group = schemas().rawGroup.safeParse(item);
    if (!group.success) return sentence('error.triage.smartRulesInvalid');
    if (
      group.data.rules.some((rule) => isPlainObject(rule) && ('rules' in rule || 'items' in rule))
    ) {
      return sentence('error.triage.smartNestedGroup');
    }
    if (group.data.rules.length === 0) return sentence('error.triage.smartNoRules');
    lists.push(group.data.rules);
  }
  const count = lists.reduce((sum, list) => sum + list.length, 0);
  if (count === 0) return sentence('error.triage.smartNoRules');
  if (count > MAX_SMART_RULES) {
    return sentence('error.triage.smartTooManyRules', { max: MAX_SMART_RULES, count });
  }
  return lists;
}

/**
 * Rules from anywhere (the window, the CLI, the history's table), checked and in their stored
 * form: names trimmed and NFC, a rule's repeated tags once. See the file's comment.
 */
export function checkSmartRules(raw: unknown): RulesCheck {
  const lists = rawRules(raw);
  if (!Array.isArray(lists)) return { ok: false, problem: lists };
  const level = schemas().level.parse(raw);
  let number = 0;
  const items: SmartItem[] = [];
  for (const [position, list] of lists.entries()) {
    const rules: SmartRule[] = [];
    for (const rawRule of list) {
      number += 1;
      const checked = checkRule(rawRule, number);
      if (!checked.ok) return checked;
      rules.push(checked.rule);
    }
    const item = level.items[position];
    const group = isPlainObject(item) && 'rules' in item ? schemas().rawGroup.parse(item) : null;
    items.push(group ? { match: group.match, rules } : (rules[0] as SmartRule));
  }
  return { ok: true, rules: { match: level.match, items } };
}

type RuleCheck = { ok: true; rule: SmartRule } | { ok: false; problem: Sentence };

/** One rule (the `number`th, from 1) parsed and its values checked. */
function checkRule(raw: unknown, number: number): RuleCheck {
  const parsed = schemas().rule.safeParse(raw);
  const invalid = {
    ok: false as const,
    problem: sentence('error.triage.smartRuleInvalid', { number }),
  };
  if (!parsed.success) return invalid;
  const rule = parsed.data;
  switch (rule.kind) {
    case 'prompt':
    case 'model': {
      const text = (rule.kind === 'prompt' ? rule.words : rule.model).normalize('NFC').trim();
      if (text === '') return invalid;
      return {
        ok: true,
        rule: rule.kind === 'prompt' ? { ...rule, words: text } : { ...rule, model: text },
      };
    }
    case 'tags':
      return checkTags(rule, invalid);
    case 'board': {
      // A rule names a tag or board, stored or not; it adds none: one that draws something
      // extra is read as its plain spelling (triage.ts `foldName`), as a record's is.
      const path = checkBoardPath(rule.board, false);
      return path.ok ? { ok: true, rule: { ...rule, board: path.path } } : path;
    }
    case 'date':
      return inOrder(rule.from, rule.to, number) ?? { ok: true, rule };
    case 'cost':
    case 'size':
      return inOrder(rule.min, rule.max, number) ?? { ok: true, rule };
    case 'service':
      return oneServiceForm(rule) ? { ok: true, rule } : invalid;
    default:
      return { ok: true, rule };
  }
}

function checkTags(rule: Extract<SmartRule, { kind: 'tags' }>, invalid: RuleCheck): RuleCheck {
  if (rule.tags.length === 0) return invalid;
  const keys = new Set<string>();
  const tags: string[] = [];
  for (const raw of rule.tags) {
    const tag = checkTag(raw, false);
    if (!tag.ok) return tag;
    if (keys.has(tag.key)) continue;
    keys.add(tag.key);
    tags.push(tag.name);
  }
  return { ok: true, rule: { ...rule, tags } };
}

/** A range's sentence when it has no bound or its lowest is above its highest; else null. */
function inOrder(
  low: number | undefined,
  high: number | undefined,
  number: number,
): RuleCheck | null {
  if (low === undefined && high === undefined) {
    return { ok: false, problem: sentence('error.triage.smartRangeInvalid', { number }) };
  }
  if (low !== undefined && high !== undefined && low > high) {
    return { ok: false, problem: sentence('error.triage.smartRangeInvalid', { number }) };
  }
  return null;
}

/** A rule with what it names that is gone: `missing` when any, a sentence for each. */
export interface RuleReport {
  readonly rule: SmartRule;
  readonly missing: boolean;
  readonly problems: readonly Sentence[];
}

/** The rules as {@link SmartRules}, each rule with its {@link RuleReport}. */
export interface RulesReport {
  readonly match: SmartMatch;
  readonly items: ReadonlyArray<
    RuleReport | { readonly match: SmartMatch; readonly rules: readonly RuleReport[] }
  >;
}

/** Whether the library has a board (by path) and a tag (on some image). */
export interface NamesInUse {
  board(path: string): boolean;
  tag(tag: string): boolean;
}

/** Each rule of `rules` with the boards and tags it names that `names` no longer has. */
export function reportRules(rules: SmartRules, names: NamesInUse): RulesReport {
  const report = (rule: SmartRule): RuleReport => {
    const problems = problemsOf(rule, names);
    return { rule, missing: problems.length > 0, problems };
  };
  return {
    match: rules.match,
    items: rules.items.map((item) =>
      isGroup(item) ? { match: item.match, rules: item.rules.map(report) } : report(item),
    ),
  };
}

function problemsOf(rule: SmartRule, names: NamesInUse): Sentence[] {
  if (rule.kind === 'board') {
    return names.board(rule.board)
      ? []
      : [sentence('error.triage.smartBoardMissing', { path: rule.board })];
  }
  if (rule.kind !== 'tags') return [];
  const gone = rule.tags.filter((tag) => !names.tag(tag));
  // The rule matches nothing when it needs every tag, or any of them and none is left.
  const nothing = rule.mode === 'all' || (rule.mode === 'any' && gone.length === rule.tags.length);
  const key = nothing ? 'error.triage.smartTagMissing' : 'error.triage.smartTagMissingIgnored';
  return gone.map((tag) => sentence(key, { tag }));
}

/** The filters of a list (the gallery's, the CLI's) a smart board can be saved from. */
export interface SavedFilter {
  readonly search?: string;
  readonly provider?: ServiceId;
  readonly model?: string;
  readonly from?: number;
  readonly to?: number;
  readonly contentCredentials?: boolean;
  readonly rating?: { readonly op: '=' | '>=' | '<='; readonly value: number };
  readonly flag?: TriageFlag;
  readonly tags?: { readonly mode: 'any' | 'all' | 'none'; readonly keys: readonly string[] };
  readonly board?: string;
  readonly unfiled?: boolean;
}

/**
 * "Save as smart board": one rule per filter set, joined by `match` (unchecked: pass the result
 * to {@link checkSmartRules}, or to the core, which does). Null when no filter is set.
 */
export function rulesFromFilter(filter: SavedFilter, match: SmartMatch): SmartRules | null {
  const items: SmartRule[] = [];
  const { search, provider, model, from, to, contentCredentials, rating, flag, tags } = filter;
  if (search !== undefined && search.trim() !== '') items.push({ kind: 'prompt', words: search });
  if (provider !== undefined) items.push({ kind: 'service', service: provider });
  if (model !== undefined) items.push({ kind: 'model', model });
  if (from !== undefined || to !== undefined) {
    items.push({
      kind: 'date',
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    });
  }
  if (rating !== undefined) items.push({ kind: 'rating', ...rating });
  if (flag !== undefined) items.push({ kind: 'flag', flag });
  if (tags !== undefined) items.push({ kind: 'tags', mode: tags.mode, tags: [...tags.keys] });
  if (filter.board !== undefined) items.push({ kind: 'board', board: filter.board });
  if (filter.unfiled === true) items.push({ kind: 'unfiled' });
  if (contentCredentials !== undefined) {
    items.push({ kind: 'credentials', verdict: contentCredentials ? 'present' : 'absent' });
  }
  return items.length === 0 ? null : { match, items };
}

/** A smart board as the core lists it (electron/core/triage/smart-boards.ts). */
export interface SmartBoardEntry {
  readonly id: string;
  /** Its name as written; unique among smart boards whatever its case. */
  readonly name: string;
  readonly createdAt: number;
  /** Its rules, checked; null when the stored rules cannot be read (`problem` says so). */
  readonly rules: SmartRules | null;
  /** Each rule with the boards and tags it names that are gone; null with `rules`. */
  readonly report: RulesReport | null;
  /** Why its rules cannot be read: it then matches nothing. */
  readonly problem?: Sentence;
}
