/**
 * A cost as the window says it: an amount in its unit, in the user's locale (a currency the way
 * the locale writes it, credits as a number of credits), and where Pictor learned it.
 */
import { PSEUDO_LOCALE, SOURCE_LOCALE } from '../../shared/domain/locales';
import type { CostUnit, TaskCost } from '../../shared/domain/task-cost';
import { activeLocale, t } from '../i18n';

const MICROS_PER_UNIT = 1_000_000;

function localeTag(): string {
  const { tag } = activeLocale();
  return tag === PSEUDO_LOCALE ? SOURCE_LOCALE : tag;
}

/** `micros` of `unit` as the locale writes it: `$0.04`, `0,04 €`, `3 credits`. */
export function formatCost(micros: number, unit: CostUnit): string {
  const amount = micros / MICROS_PER_UNIT;
  if (unit === 'credits') {
    const number = new Intl.NumberFormat(localeTag(), { maximumFractionDigits: 6 });
    return t('costs.credits', { amount: number.format(amount) });
  }
  try {
    const money = new Intl.NumberFormat(localeTag(), {
      style: 'currency',
      currency: unit,
      maximumFractionDigits: 6,
    });
    return money.format(amount);
  } catch {
    return `${amount} ${unit}`;
  }
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
