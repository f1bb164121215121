/**
 * Ledger entries of unknown cost as today's prices price them: a task sent before its service
 * had a price is what a spending cap counts at today's price (cap-spend.ts), so `pictor costs`
 * shows it so too, beside what the ledger recorded (its totals stay the record's).
 */
import type { CostPrice, LedgerEntry } from '../../../shared/domain/cost-ledger';
import type { CostUnit, TaskCost } from '../../../shared/domain/task-cost';
import { estimateCost } from './cost-estimate';

/** A ledger entry, and for one of unknown cost the estimate today's prices give it. */
export type PricedEntry = LedgerEntry & {
  readonly atTodaysPrice?: Extract<TaskCost, { source: 'estimated' }>;
};

/** What the entries of unknown cost that today's prices price come to, in one unit. */
export interface PricedToday {
  readonly unit: CostUnit;
  readonly micros: number;
  readonly tasks: number;
}

/** `entries`, each of unknown cost priced by `prices` where they can; and those sums per unit. */
export function atTodaysPrices(
  entries: readonly LedgerEntry[],
  prices: readonly CostPrice[],
): { entries: PricedEntry[]; pricedToday: PricedToday[] } {
  const sums = new Map<CostUnit, PricedToday>();
  const priced = entries.map((entry): PricedEntry => {
    if (entry.cost.source !== 'unknown') return entry;
    const request = {
      ...(entry.model === null ? {} : { model: entry.model }),
      ...(entry.size === null ? {} : { size: entry.size }),
    };
    const today = estimateCost(prices, entry.provider, request);
    if (today.source !== 'estimated') return entry;
    const sum = sums.get(today.unit) ?? { unit: today.unit, micros: 0, tasks: 0 };
    sums.set(today.unit, { ...sum, micros: sum.micros + today.micros, tasks: sum.tasks + 1 });
    return { ...entry, atTodaysPrice: today };
  });
  return { entries: priced, pricedToday: [...sums.values()] };
}
