/**
 * Settings › Costs › Prices: what each service (and model) costs per image or megapixel, which
 * Pictor estimates with when a service does not report a cost. Set and removed only here.
 */
import { useState } from 'react';
import { COST_BOUNDS } from '../../../shared/domain/cost-amounts';
import type { PriceBasis, CostUnit } from '../../../shared/domain/task-cost';
import type { ProviderId } from '../../../shared/domain/providers';
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { SelectField } from '../../components/select-field';
import { t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { AmountFields } from './amount-field';
import { SERVICE_CHOICES, basisChoices, readAmount } from './cost-choices';

function PriceList() {
  const prices = useAppStore((state) => state.prices);
  const clear = useAppStore((state) => state.costsClearPrice);
  if (prices.length === 0) return <p className="muted">{t('costs.settings.noPrices')}</p>;
  return (
    <ul className="cost-settings-list">
      {prices.map((price) => (
        <li key={`${price.provider}/${price.model}/${price.unit}`}>
          <span>
            {t('costs.settings.priceLine', {
              service: serviceLabel(price.provider),
              model: price.model || t('costs.settings.everyModel'),
              amount: formatCost(price.micros, price.unit),
              basis: price.basis,
            })}
          </span>
          <Button size="small" onClick={() => void clear(price.provider, price.model, price.unit)}>
            {t('costs.settings.remove')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The model a price is for (empty: every model of the service without its own). */
function ModelField({ value, onChange }: { value: string; onChange: (model: string) => void }) {
  return (
    <Field label={t('costs.settings.model')}>
      {(control) => (
        <input
          {...control}
          className="input"
          value={value}
          maxLength={COST_BOUNDS.model}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

export function PricesForm() {
  const setPrice = useAppStore((state) => state.costsSetPrice);
  const [provider, setProvider] = useState<ProviderId>('pictor');
  const [model, setModel] = useState('');
  const [amount, setAmount] = useState('');
  const [unit, setUnit] = useState<CostUnit>('USD');
  const [basis, setBasis] = useState<PriceBasis>('image');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const read = readAmount(amount, unit, 'price');
    if ('error' in read) return setError(read.error);
    setError(null);
    const price = { provider, model: model.trim(), unit, basis, micros: read.micros };
    if (await setPrice(price)) setAmount('');
  };
  return (
    <div className="cost-settings">
      <h3>{t('costs.settings.prices')}</h3>
      <PriceList />
      <form
        className="settings-grid"
        aria-label={t('costs.settings.prices')}
        onSubmit={(event) => (event.preventDefault(), void submit())}
      >
        <SelectField
          label={t('costs.settings.service')}
          value={provider}
          options={SERVICE_CHOICES}
          onChange={setProvider}
        />
        <ModelField value={model} onChange={setModel} />
        <AmountFields
          amount={amount}
          onAmount={setAmount}
          unit={unit}
          onUnit={setUnit}
          error={error}
        />
        <SelectField
          label={t('costs.settings.basis')}
          value={basis}
          options={basisChoices()}
          onChange={setBasis}
        />
        <div className="settings-actions">
          <Button type="submit">{t('costs.settings.setPrice')}</Button>
        </div>
      </form>
    </div>
  );
}
