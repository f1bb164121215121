/**
 * The ledger's totals summed over every entry, one at a time, as Pictor computed them before the
 * SQL aggregates (core/costs/ledger-totals.ts at commit b534dd5): the reference the aggregate
 * totals must equal. Each entry's local day comes from its wall clock (localDay), not from the
 * day pieces the aggregates use.
 */
import type { LedgerEntry, LedgerTotals, UnitTotal } from '../../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../../shared/domain/providers';
import { countedCost, type CostUnit } from '../../../../shared/domain/task-cost';
import { localDay } from '../../../../electron/core/costs/local-periods';
import { monthsOf } from '../../../../electron/core/costs/ledger-totals';

interface Sum {
  micros: number;
  estimatedMicros: number;
  tasks: number;
}

class Sums<G extends string> {
  private readonly sums = new Map<string, { group: G; unit: CostUnit; sum: Sum }>();

  add(group: G, unit: CostUnit, micros: number, estimated: boolean): void {
    const key = `${group}\u0000${unit}`;
    let entry = this.sums.get(key);
    if (entry === undefined) {
      entry = { group, unit, sum: { micros: 0, estimatedMicros: 0, tasks: 0 } };
      this.sums.set(key, entry);
    }
    entry.sum.micros += micros;
    if (estimated) entry.sum.estimatedMicros += micros;
    entry.sum.tasks += 1;
  }

  list(): { group: G; total: UnitTotal }[] {
    return [...this.sums.values()]
      .sort((a, b) => a.group.localeCompare(b.group) || a.unit.localeCompare(b.unit))
      .map(({ group, unit, sum }) => ({ group, total: { unit, ...sum } }));
  }
}

export function rowByRowTotals(entries: readonly LedgerEntry[], timeZone: string): LedgerTotals {
  const overall = new Sums<''>();
  const days = new Sums<string>();
  const services = new Sums<ProviderId>();
  let unknownTasks = 0;
  for (const entry of entries) {
    const counted = countedCost(entry.cost);
    if (counted === undefined) {
      if (entry.cost.source === 'unknown') unknownTasks += 1;
      continue;
    }
    const estimated = counted.source === 'estimated';
    const day = localDay(entry.createdAt, timeZone);
    overall.add('', counted.unit, counted.micros, estimated);
    days.add(day, counted.unit, counted.micros, estimated);
    services.add(entry.provider, counted.unit, counted.micros, estimated);
  }
  const byDay = days.list();
  return {
    timeZone,
    overall: overall.list().map(({ total }) => total),
    byDay: byDay.map(({ group, total }) => ({ day: group, ...total })),
    byMonth: monthsOf(byDay),
    byService: services.list().map(({ group, total }) => ({ provider: group, ...total })),
    unknownTasks,
  };
}
