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
import { periodStart } from './local-periods';

/** What the new tasks add in one unit: the amount, and how many cannot be counted in it. */
export interface Adding {
  readonly micros: number;
  readonly unpriced: number;
  /**
   * The first task that cannot be counted, as the refusal names it: in a batch of several
   * services (a compare under a cap of every service) it need not be the first task's service.
   */
  readonly firstUnpriced?: { readonly provider: ProviderId; readonly model: string };
}

/** What a cap's period has spent in its unit, and what it could not count (by service, model). */
export interface Spent {
  readonly micros: number;
  readonly unpriced: readonly {
    readonly provider: ProviderId;
    readonly model: string | null;
    readonly tasks: number;
  }[];
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
 * What one cap says of the new tasks, as data, so the window can word it in time and in the
 * reader's language ("Generating 6 (about $0.30) would pass your daily cap of $0.25; $0.00 spent
 * today") where the sentences below are the refusal after the fact.
 */
export interface CapForecast {
  readonly cap: SpendingCap;
  /**
   * `over`: the tasks would pass it; `unpriced`: it cannot count them in its unit (no price);
   * `unpricedSpent`: it cannot count tasks of its period (a hard cap only).
   */
  readonly verdict: 'over' | 'unpriced' | 'unpricedSpent';
  /** What its period has spent in its unit (0 when not counted: `unpriced`). */
  readonly spentMicros: number;
  /** What the new tasks add in its unit. */
  readonly addingMicros: number;
  /** `unpriced`: the new tasks' service; `unpricedSpent`: the first service it cannot count. */
  readonly service: ProviderId;
  /** `unpriced`: the model without a price ('' : the service's default). */
  readonly model: string;
  /** `unpricedSpent`: how many of the period's tasks it cannot count; else 0. */
  readonly tasks: number;
}

export interface CapVerdict {
  /** Why the tasks may not be submitted (the first hard cap that refuses them), if so. */
  readonly refusal?: Sentence;
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
  const refusal = said.find((one) => one.forecast.cap.kind === 'hard')?.sentence;
  const warnings = said
    .filter((one) => one.forecast.cap.kind === 'soft')
    .map((one) => one.sentence);
  return {
    ...(refusal ? { refusal } : {}),
    warnings,
    forecasts: said.map((one) => one.forecast),
  };
}

function hardFirst(cap: SpendingCap): number {
  return cap.kind === 'hard' ? 0 : 1;
}

/** What one cap says of the new tasks: nothing, or its refusal (hard) or warning (soft). */
function capSays(check: CapCheck, cap: SpendingCap): Said | undefined {
  const adding = check.adding(cap.unit);
  // Nothing new in this cap (every new task costs nothing): it has nothing to say.
  if (adding.micros === 0 && adding.unpriced === 0) return undefined;
  const forecast = { cap, spentMicros: 0, addingMicros: adding.micros, service: check.provider };
  if (adding.unpriced > 0) {
    // A soft cap cannot say it is passed by what nobody can count; a hard cap cannot let it by.
    if (cap.kind === 'soft') return undefined;
    const unpriced = adding.firstUnpriced ?? { provider: check.provider, model: check.model };
    const model = unpriced.model || PROVIDERS[unpriced.provider].defaultModel || '';
    return {
      forecast: { ...forecast, service: unpriced.provider, verdict: 'unpriced', model, tasks: 0 },
      sentence: sentence('error.costs.unpriced', {
        unit: cap.unit,
        service: PROVIDERS[unpriced.provider].label,
        model: model || 'none',
      }),
    };
  }
  const since = periodStart(cap.period, check.now, check.timeZone);
  const spent = check.spent(cap.unit, cap.provider, since);
  const [missing] = spent.unpriced;
  if (missing !== undefined && cap.kind === 'hard') {
    const tasks = spent.unpriced.reduce((sum, group) => sum + group.tasks, 0);
    return {
      forecast: {
        ...forecast,
        verdict: 'unpricedSpent',
        spentMicros: spent.micros,
        service: missing.provider,
        model: missing.model ?? '',
        tasks,
      },
      sentence: sentence('error.costs.unpricedSpent', {
        unit: cap.unit,
        period: cap.period,
        tasks,
        service: PROVIDERS[missing.provider].label,
      }),
    };
  }
  if (spent.micros + adding.micros <= cap.micros) return undefined;
  const service = PROVIDERS[check.provider].label;
  const model = check.model || PROVIDERS[check.provider].defaultModel || '';
  return {
    forecast: { ...forecast, verdict: 'over', spentMicros: spent.micros, model, tasks: 0 },
    sentence: sentence(cap.kind === 'hard' ? 'error.costs.hardCap' : 'error.costs.softCap', {
      period: cap.period,
      cap: formatMicros(cap.micros),
      unit: cap.unit,
      scope: cap.provider === null ? 'all' : 'one',
      service,
      spent: formatMicros(spent.micros),
      adding: formatMicros(adding.micros),
    }),
  };
}
