/**
 * What a cap's period has spent in its unit: the one computation every view of a cap reads
 * (`pictor caps list`, `pictor costs`, Settings › Costs, the Costs screen) and every verdict
 * (a refusal, a warning, the compose form's forecast) sums, so no two of them can say two things.
 *
 * Each task of the cap's scope created from the period's start counts in the cap's unit by its
 * latest report in that unit, else by the estimate it was admitted with in that unit (the ledger:
 * history/ledger-rows.ts); a task admitted with no price in that unit counts at today's price in
 * it ("priced today", said apart); the rest cannot be counted and are returned by service and
 * model. Tasks not billed or free count nothing.
 */
import type { CostPrice, SpendingCap } from '../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../shared/domain/providers';
import type { CostUnit } from '../../../shared/domain/task-cost';
import type { CostTables } from '../history';
import type { Spent, UncountedGroup } from './cap-check';
import { estimateIn } from './cost-estimate';
import { periodStart } from './local-periods';

/** What a cap's period has spent, how much of it is at today's price, and what it cannot count. */
export interface CapSpend extends Spent {
  /** Tasks admitted with no price in the unit, counted at today's price (part of `micros`). */
  readonly pricedToday: { readonly tasks: number; readonly micros: number };
}

/** A cap and what its period has spent: a line of `caps list`, `costs` and Settings. */
export interface CapStanding extends CapSpend {
  readonly cap: SpendingCap;
}

/** Where a spend is read: the ledger's tables and today's prices. */
export interface SpendSource {
  readonly tables: Pick<CostTables, 'counted'>;
  readonly prices: readonly CostPrice[];
}

/** What the tasks created from `since` (on `provider`, or every one for null) cost in `unit`. */
export function spentSince(
  source: SpendSource,
  unit: CostUnit,
  provider: ProviderId | null,
  since: number,
): CapSpend {
  const counted = source.tables.counted(unit, provider, since);
  let micros = counted.micros;
  const pricedToday = { tasks: 0, micros: 0 };
  const unpriced: UncountedGroup[] = [];
  for (const group of counted.unpriced) {
    const request = {
      ...(group.model === null ? {} : { model: group.model }),
      ...(group.size === null ? {} : { size: group.size }),
    };
    const estimate = estimateIn(source.prices, group.provider, request, unit);
    if (estimate === undefined) {
      unpriced.push({ provider: group.provider, model: group.model, tasks: group.tasks });
      continue;
    }
    micros += estimate.micros * group.tasks;
    pricedToday.tasks += group.tasks;
    pricedToday.micros += estimate.micros * group.tasks;
  }
  return { micros, pricedToday, unpriced };
}

/** What `cap`'s period holding `now` (in `timeZone`) has spent (see {@link spentSince}). */
export function capSpend(
  source: SpendSource,
  cap: Pick<SpendingCap, 'period' | 'unit' | 'provider'>,
  at: { readonly now: number; readonly timeZone: string },
): CapSpend {
  const since = periodStart(cap.period, at.now, at.timeZone);
  return spentSince(source, cap.unit, cap.provider, since);
}
