/**
 * The spending caps' verdict on new tasks: each cap of their service (or over all services) in the
 * unit their cost is in compares what its period has cost so far (reported amounts, and the
 * estimates of tasks not reported yet, running ones included) plus what the new tasks add. A hard
 * cap refuses them; a soft cap warns. Under a hard cap, tasks Pictor cannot price are refused:
 * a cap that let unpriced work through would not hold.
 */
import type { SpendingCap } from '../../../shared/domain/cost-ledger';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import {
  countedCost,
  formatMicros,
  type CostUnit,
  type TaskCost,
} from '../../../shared/domain/task-cost';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { periodStart } from './local-periods';

/** What the tasks created from `since` cost in `unit` (on `provider`, or every one for null). */
export type SpentSince = (unit: CostUnit, provider: ProviderId | null, since: number) => number;

export interface CapCheck {
  readonly caps: readonly SpendingCap[];
  readonly provider: ProviderId;
  /** The new tasks' costs (estimates, or unknown). */
  readonly costs: readonly TaskCost[];
  readonly spent: SpentSince;
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
  const service = PROVIDERS[check.provider].label;
  const unpriced = check.costs.some((cost) => cost.source === 'unknown');
  for (const cap of check.caps) {
    if (cap.provider !== null && cap.provider !== check.provider) continue;
    const inUnit = check.costs.map(countedCost).filter((cost) => cost?.unit === cap.unit);
    if (unpriced && cap.kind === 'hard') {
      return { refusal: sentence('error.costs.unpriced', { unit: cap.unit, service }), warnings };
    }
    // Tasks priced in another unit are not this cap's.
    if (inUnit.length === 0) continue;
    const adding = inUnit.reduce((sum, cost) => sum + (cost?.micros ?? 0), 0);
    const since = periodStart(cap.period, check.now, check.timeZone);
    const spent = check.spent(cap.unit, cap.provider, since);
    if (spent + adding <= cap.micros) continue;
    const said = sentence(cap.kind === 'hard' ? 'error.costs.hardCap' : 'error.costs.softCap', {
      period: cap.period,
      cap: formatMicros(cap.micros),
      unit: cap.unit,
      scope: cap.provider === null ? 'all' : 'one',
      service,
      spent: formatMicros(spent),
      adding: formatMicros(adding),
    });
    if (cap.kind === 'hard') return { refusal: said, warnings };
    warnings.push(said);
  }
  return { warnings };
}
