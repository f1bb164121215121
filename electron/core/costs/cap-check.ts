/**
 * The spending caps' verdict on new tasks (docs/COSTS.md "Spending caps"). A cap covers every
 * task of its scope (all services, or one), whatever unit its own cost is in: each task counts in
 * the cap's unit by its report in that unit, else by its estimate in that unit (the one it was
 * admitted with, or for a task admitted unpriced, today's price). A hard cap refuses new tasks
 * that would pass it, and refuses them too when it cannot count them, or cannot count what its
 * period has spent, in its unit: a cap that let uncounted work through would not hold. A soft cap
 * warns. Tasks that cost nothing (the built-in demo, not billed) pass every cap.
 */
import type { SpendingCap } from '../../../shared/domain/cost-ledger';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { formatMicros, type CostUnit } from '../../../shared/domain/task-cost';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { MAX_MISSING_PRICES } from '../../../shared/domain/limits';
import type { CapWord, MissingPrice } from '../../../shared/ipc/cost-contract';
import { periodStart } from './local-periods';

/** Tasks a cap cannot count in its unit, of one service and model ('' : none named). */
export interface UncountedGroup {
  readonly provider: ProviderId;
  readonly model: string | null;
  readonly tasks: number;
}

/** What the new tasks add in one unit: the amount, and the tasks that cannot be counted in it. */
export interface Adding {
  readonly micros: number;
  /** By service and model, in the order the batch names them (a compare: several services). */
  readonly unpriced: readonly UncountedGroup[];
}

/** What a cap's period has spent in its unit, and what it could not count (by service, model). */
export interface Spent {
  readonly micros: number;
  readonly unpriced: readonly UncountedGroup[];
}

export interface CapCheck {
  readonly caps: readonly SpendingCap[];
  readonly provider: ProviderId;
  /** The model the new tasks ask for, as the refusal names it ('' : the service's default). */
  readonly model: string;
  /** What the new tasks add in `unit`. */
  readonly adding: (unit: CostUnit) => Adding;
  /** What the tasks created from `since` (on `provider`, or every one for null) cost in `unit`. */
  readonly spent: (unit: CostUnit, provider: ProviderId | null, since: number) => Spent;
  readonly now: number;
  readonly timeZone: string;
}

/**
 * What one cap says of the new tasks, as data, so each front can word it in time and in its own
 * words ("Generating 6 (about $0.30) would pass your daily cap of $0.25; $0.00 spent today";
 * the CLI's refusal naming `pictor prices set`) where the sentences below are main's refusal
 * after the fact. Its fields are documented in the contract's schema (shared/ipc/cost-contract.ts).
 */
export type CapForecast = CapWord;

export interface CapVerdict {
  /** Why the tasks may not be submitted (the first hard cap that refuses them), if so. */
  readonly refusal?: Sentence;
  /** That hard cap's word as data, for a front to say in its own words (with {@link refusal}). */
  readonly refused?: CapForecast;
  /** Soft caps they pass. */
  readonly warnings: readonly Sentence[];
  /** Every cap with a word to say, hard ones first. */
  readonly forecasts: readonly CapForecast[];
}

/** What a cap said: its forecast and the sentence a refusal or a warning says it with. */
interface Said {
  readonly forecast: CapForecast;
  readonly sentence: Sentence;
}

export function checkCaps(check: CapCheck): CapVerdict {
  const said = check.caps
    .filter((cap) => cap.provider === null || cap.provider === check.provider)
    .map((cap) => capSays(check, cap))
    .filter((one): one is Said => one !== undefined)
    .sort((a, b) => hardFirst(a.forecast.cap) - hardFirst(b.forecast.cap));
  const refusing = said.find((one) => one.forecast.cap.kind === 'hard');
  const warnings = said
    .filter((one) => one.forecast.cap.kind === 'soft')
    .map((one) => one.sentence);
  return {
    ...(refusing ? { refusal: refusing.sentence, refused: refusing.forecast } : {}),
    warnings,
    forecasts: said.map((one) => one.forecast),
  };
}

function hardFirst(cap: SpendingCap): number {
  return cap.kind === 'hard' ? 0 : 1;
}

/**
 * What one cap says of the new tasks: nothing, or its refusal (hard) or warning (soft). What its
 * period has spent and what the submit adds are always counted and said first; a hard cap that
 * also lacks prices lists them (`missing`), and refuses for them even when the sum is under it.
 */
function capSays(check: CapCheck, cap: SpendingCap): Said | undefined {
  const adding = check.adding(cap.unit);
  // Nothing new in this cap (every new task costs nothing): it has nothing to say.
  if (adding.micros === 0 && adding.unpriced.length === 0) return undefined;
  const since = periodStart(cap.period, check.now, check.timeZone);
  const spent = check.spent(cap.unit, cap.provider, since);
  const over = spent.micros + adding.micros > cap.micros;
  // A soft cap cannot warn of what nobody can count; a hard cap cannot let it by.
  const missing = cap.kind === 'hard' ? missingPrices(adding, spent) : [];
  if (!over && missing.length === 0) return undefined;
  const verdict = over ? 'over' : adding.unpriced.length > 0 ? 'unpriced' : 'unpricedSpent';
  const first = missing[0];
  const service = verdict === 'over' || first === undefined ? check.provider : first.service;
  const model =
    verdict === 'over' || first === undefined
      ? check.model || PROVIDERS[check.provider].defaultModel || ''
      : first.model;
  const forecast: CapForecast = {
    cap,
    verdict,
    spentMicros: spent.micros,
    addingMicros: adding.micros,
    service,
    model,
    // The first missing price's own tasks: the others are listed in `missing` after it.
    tasks: verdict === 'unpricedSpent' ? (first?.tasks ?? 0) : 0,
    missing,
  };
  return { forecast, sentence: sentenceOf(forecast) };
}

/** The prices a hard cap lacks: this submit's first, then its period's, by service and model. */
function missingPrices(adding: Adding, spent: Spent): MissingPrice[] {
  const found = new Map<string, MissingPrice>();
  const add = (group: UncountedGroup, of: MissingPrice['of']): void => {
    const model = group.model || PROVIDERS[group.provider].defaultModel || '';
    const key = `${of}\u0000${group.provider}\u0000${model}`;
    const before = found.get(key);
    found.set(key, {
      service: group.provider,
      model,
      of,
      tasks: (before?.tasks ?? 0) + group.tasks,
    });
  };
  for (const group of adding.unpriced) add(group, 'submit');
  for (const group of spent.unpriced) add(group, 'period');
  return [...found.values()].slice(0, MAX_MISSING_PRICES);
}

/** The catalogue's sentence of a cap's word (main's refusal or warning, in every language). */
function sentenceOf(forecast: CapForecast): Sentence {
  const { cap } = forecast;
  if (forecast.verdict === 'unpriced')
    return sentence('error.costs.unpriced', {
      unit: cap.unit,
      service: PROVIDERS[forecast.service].label,
      model: forecast.model || 'none',
    });
  if (forecast.verdict === 'unpricedSpent')
    return sentence('error.costs.unpricedSpent', {
      unit: cap.unit,
      period: cap.period,
      tasks: forecast.tasks,
      service: PROVIDERS[forecast.service].label,
    });
  return sentence(cap.kind === 'hard' ? 'error.costs.hardCap' : 'error.costs.softCap', {
    period: cap.period,
    cap: formatMicros(cap.micros),
    unit: cap.unit,
    scope: cap.provider === null ? 'all' : 'one',
    service: PROVIDERS[forecast.service].label,
    spent: formatMicros(forecast.spentMicros),
    adding: formatMicros(forecast.addingMicros),
  });
}
