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

export interface CapVerdict {
  /** Why the tasks may not be submitted (a hard cap), if so. */
  readonly refusal?: Sentence;
  /** Soft caps they pass. */
  readonly warnings: readonly Sentence[];
}

export function checkCaps(check: CapCheck): CapVerdict {
  const warnings: Sentence[] = [];
  for (const cap of check.caps) {
    if (cap.provider !== null && cap.provider !== check.provider) continue;
    const said = capSays(check, cap);
    if (said === undefined) continue;
    if (cap.kind === 'hard') return { refusal: said, warnings };
    warnings.push(said);
  }
  return { warnings };
}

/** What one cap says of the new tasks: nothing, or its refusal (hard) or warning (soft). */
function capSays(check: CapCheck, cap: SpendingCap): Sentence | undefined {
  const adding = check.adding(cap.unit);
  // Nothing new in this cap (every new task costs nothing): it has nothing to say.
  if (adding.micros === 0 && adding.unpriced === 0) return undefined;
  const service = PROVIDERS[check.provider].label;
  if (adding.unpriced > 0) {
    // A soft cap cannot say it is passed by what nobody can count; a hard cap cannot let it by.
    if (cap.kind === 'soft') return undefined;
    return sentence('error.costs.unpriced', {
      unit: cap.unit,
      service,
      model: check.model || PROVIDERS[check.provider].defaultModel || 'none',
    });
  }
  const since = periodStart(cap.period, check.now, check.timeZone);
  const spent = check.spent(cap.unit, cap.provider, since);
  const [missing] = spent.unpriced;
  if (missing !== undefined && cap.kind === 'hard') {
    return sentence('error.costs.unpricedSpent', {
      unit: cap.unit,
      period: cap.period,
      tasks: spent.unpriced.reduce((sum, group) => sum + group.tasks, 0),
      service: PROVIDERS[missing.provider].label,
    });
  }
  if (spent.micros + adding.micros <= cap.micros) return undefined;
  return sentence(cap.kind === 'hard' ? 'error.costs.hardCap' : 'error.costs.softCap', {
    period: cap.period,
    cap: formatMicros(cap.micros),
    unit: cap.unit,
    scope: cap.provider === null ? 'all' : 'one',
    service,
    spent: formatMicros(spent.micros),
    adding: formatMicros(adding.micros),
  });
}
