/** The choices Settings' prices and caps offer: services, units, bases, periods, kinds. */
import type { CapPeriod, SpendingCap } from '../../../shared/domain/cost-ledger';
import {
  amountRange,
  readTypedAmount,
  type AmountKind,
  type AmountProblem,
} from '../../../shared/domain/cost-amounts';
import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import {
  CREDIT_UNITS,
  CURRENCY_CODES,
  type CostUnit,
  type PriceBasis,
} from '../../../shared/domain/task-cost';
import type { SelectChoice } from '../../components/select-field';
import { decimalSeparator, formatDecimal, formatMoney, moneyLocales, t } from '../../i18n';
import { serviceLabel } from '../../lib/service-label';

/** The services, named in the shown language (and the user's own by its name) when called. */
export function serviceChoices(): SelectChoice<ProviderId>[] {
  return PROVIDER_IDS.map((provider) => ({ value: provider, label: serviceLabel(provider) }));
}

export function unitChoices(): SelectChoice<CostUnit>[] {
  return [
    ...CURRENCY_CODES.map((code) => ({ value: code, label: code })),
    ...CREDIT_UNITS.map((unit) => ({ value: unit, label: t('costs.settings.creditsUnit') })),
  ];
}

/** Why `text` is refused, as a sentence naming it and the amounts allowed. */
function problemText(problem: AmountProblem, text: string, unit: CostUnit, kind: AmountKind) {
  const range = amountRange(kind, unit);
  const money = {
    value: text.trim(),
    unit: unit === 'credits' ? t('costs.settings.creditsUnit') : unit,
    min: formatMoney(range.min, unit),
    max: formatMoney(range.max, unit),
    step: formatMoney(range.step, unit),
    example: formatMoney(40_000, unit),
  };
  switch (problem.kind) {
    case 'empty':
      return t('costs.amount.empty', money);
    case 'negative':
      return t('costs.amount.negative', money);
    case 'finerThanStep':
      return t('costs.amount.finer', money);
    case 'tooLarge':
      return t('costs.amount.tooLarge', { ...money, kind });
    case 'ambiguous':
      return t('costs.amount.ambiguous', {
        ...money,
        whole: formatDecimal(problem.whole),
        decimal: formatDecimal(problem.decimal),
      });
    case 'otherUnit':
      return t('costs.amount.otherUnit', money);
    default:
      return t('costs.amount.notNumber', money);
  }
}

/**
 * The micros of an amount the user typed, as people type amounts in the shown language (its
 * decimal separator, a currency sign of the unit, a leading point: shared/domain/cost-amounts.ts),
 * or the sentence saying what is wrong with it and what to type.
 */
export function readAmount(
  text: string,
  unit: CostUnit,
  kind: AmountKind,
): { micros: number } | { error: string } {
  const reading = readTypedAmount(text, {
    unit,
    kind,
    decimal: decimalSeparator(),
    locales: moneyLocales(),
    words: [t('costs.settings.creditsUnit')],
  });
  return reading.ok
    ? { micros: reading.micros }
    : { error: problemText(reading.problem, text, unit, kind) };
}

export function basisChoices(): SelectChoice<PriceBasis>[] {
  return [
    { value: 'image', label: t('costs.settings.perImage') },
    { value: 'megapixel', label: t('costs.settings.perMegapixel') },
  ];
}

export function periodChoices(): SelectChoice<CapPeriod>[] {
  return [
    { value: 'day', label: t('costs.settings.day') },
    { value: 'month', label: t('costs.settings.month') },
  ];
}

export function kindChoices(): SelectChoice<SpendingCap['kind']>[] {
  return [
    { value: 'soft', label: t('costs.settings.soft') },
    { value: 'hard', label: t('costs.settings.hard') },
  ];
}
