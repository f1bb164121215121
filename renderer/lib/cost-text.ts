/**
 * A cost as the window says it: an amount in its unit, written as money is everywhere (the
 * locale's currency format, credits as a number of credits: shared/i18n/money.ts, the same
 * writing as main's sentences), and where Pictor learned it.
 */
import type { CostUnit, TaskCost } from '../../shared/domain/task-cost';
import { formatMoney, t } from '../i18n';

/** `micros` of `unit` as the locale writes money: `$0.04`, `0,04 €`, `3 credits`. */
export function formatCost(micros: number, unit: CostUnit): string {
  return formatMoney(micros, unit);
}

/** The short word for where a cost comes from: reported, estimate, not billed, unknown. */
function costSourceText(cost: TaskCost): string {
  return t(`costs.source.${cost.source}`);
}

/** The cost with its source, as a task row shows it: `$0.04 (estimate)`, `not billed`. */
export function costLine(cost: TaskCost): string {
  if (!('micros' in cost)) return costSourceText(cost);
  return t('costs.withSource', {
    amount: formatCost(cost.micros, cost.unit),
    source: costSourceText(cost),
  });
}

/**
 * The cost in a task's details: the amount, and how Pictor knows it, in words (the field the
 * service said it in, `usage.cost`, is technical detail: the details show it on hover).
 */
export function costDetail(cost: TaskCost): string {
  switch (cost.source) {
    case 'reported':
      return t('costs.detail.reported', { amount: formatCost(cost.micros, cost.unit) });
    case 'estimated':
      return t('costs.detail.estimated', {
        amount: formatCost(cost.micros, cost.unit),
        basis: cost.basis,
      });
    default:
      return costSourceText(cost);
  }
}
