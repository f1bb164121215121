/** The choices Settings' prices and caps offer: services, units, bases, periods, kinds. */
import type { CapPeriod, SpendingCap } from '../../../shared/domain/cost-ledger';
import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import {
  CREDIT_UNITS,
  CURRENCY_CODES,
  parseAmount,
  type CostUnit,
  type PriceBasis,
} from '../../../shared/domain/task-cost';
import type { SelectChoice } from '../../components/select-field';
import { t } from '../../i18n';
import { serviceLabel } from '../../lib/service-label';

export const SERVICE_CHOICES: SelectChoice<ProviderId>[] = PROVIDER_IDS.map((provider) => ({
  value: provider,
  label: serviceLabel(provider),
}));

export function unitChoices(): SelectChoice<CostUnit>[] {
  return [
    ...CURRENCY_CODES.map((code) => ({ value: code, label: code })),
    ...CREDIT_UNITS.map((unit) => ({ value: unit, label: t('costs.settings.creditsUnit') })),
  ];
}

/** The micros of an amount the user typed, or the sentence saying what to type. */
export function readAmount(text: string): { micros: number } | { error: string } {
  const micros = parseAmount(text);
  return micros === undefined ? { error: t('costs.settings.badAmount') } : { micros };
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
