/**
 * What a fan-out (a compare, an edit) is estimated to cost, per target and in all, by unit: the
 * sum of each task's cost as `CostBook.preview` gives it; tasks it cannot price are counted
 * apart, never as 0.
 */
import type { CostUnit, TaskCost } from '../../../shared/domain/task-cost';

/** Amounts by unit, and how many tasks have no price. */
export interface CostSum {
  readonly micros: Partial<Record<CostUnit, number>>;
  readonly unpriced: number;
}

export interface FanOutTotals {
  /** By slot. */
  readonly byTarget: ReadonlyMap<number, CostSum>;
  readonly total: CostSum;
}

interface Priced {
  readonly slot: number;
  readonly count: number;
  readonly perTask: readonly TaskCost[];
}

export function totalsOf(targets: readonly Priced[]): FanOutTotals {
  const byTarget = new Map<number, CostSum>();
  for (const { slot, count, perTask } of targets) {
    byTarget.set(slot, sumOf(perTask.flatMap((cost) => Array.from({ length: count }, () => cost))));
  }
  return { byTarget, total: addSums([...byTarget.values()]) };
}

/** The sum of `costs` (free and not billed add nothing; unknown ones are counted apart). */
function sumOf(costs: readonly (TaskCost | undefined)[]): CostSum {
  const micros: Partial<Record<CostUnit, number>> = {};
  let unpriced = 0;
  for (const cost of costs) {
    if (cost === undefined || cost.source === 'unknown') unpriced += 1;
    else if ('micros' in cost) micros[cost.unit] = (micros[cost.unit] ?? 0) + cost.micros;
  }
  return { micros, unpriced };
}

function addSums(sums: readonly CostSum[]): CostSum {
  const micros: Partial<Record<CostUnit, number>> = {};
  for (const sum of sums) {
    for (const [unit, amount] of Object.entries(sum.micros) as [CostUnit, number][]) {
      micros[unit] = (micros[unit] ?? 0) + amount;
    }
  }
  return { micros, unpriced: sums.reduce((all, sum) => all + sum.unpriced, 0) };
}
