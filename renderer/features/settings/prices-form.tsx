/**
 * Settings › Costs › Prices: what each service (and model) costs per image or megapixel, which
 * Pictor estimates with when a service does not report a cost. Set and removed only here.
 */
import { useRef } from 'react';
import { COST_BOUNDS } from '../../../shared/domain/cost-amounts';
import { TextField } from '../../components/text-field';
import { SelectField } from '../../components/select-field';
import { t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import { useFocusRequest } from '../../store/use-focus-request';
import { AmountFields, useAmountEntry } from './amount-field';
import { serviceChoices, basisChoices } from './cost-choices';
import { CostEntryForm, CostEntryList } from './cost-entries';

function PriceList() {
  const prices = useAppStore((state) => state.prices);
  const clear = useAppStore((state) => state.costsClearPrice);
  return (
    <CostEntryList
      entries={prices}
      empty={t('costs.settings.noPrices')}
      keyOf={(price) => `${price.provider}/${price.model}/${price.unit}`}
      line={(price) =>
        t('costs.settings.priceLine', {
          service: serviceLabel(price.provider),
          model: price.model || t('costs.settings.everyModel'),
          amount: formatCost(price.micros, price.unit),
          basis: price.basis,
        })
      }
      onRemove={(price) => void clear(price.provider, price.model, price.unit)}
    />
  );
}

/** The model a price is for (empty: every model of the service without its own). */
function ModelField({ value, onChange }: { value: string; onChange: (model: string) => void }) {
  return (
    <TextField
      label={t('costs.settings.model')}
      value={value}
      maxLength={COST_BOUNDS.model}
      onChange={onChange}
    />
  );
}

/**
 * `active`: Settings is shown, so a link asking for a price (a cap's refusal under the compose
 * form: `costsAskPrice`, which sets the form's service, model and unit) focuses its amount.
 */
export function PricesForm({ active = true }: { active?: boolean }) {
  const setPrice = useAppStore((state) => state.costsSetPrice);
  const [provider, setProvider] = useFormDraft('price.provider', 'pictor');
  const [model, setModel] = useFormDraft('price.model', '');
  const [basis, setBasis] = useFormDraft('price.basis', 'image');
  const amount = useAmountEntry('price', (unit, micros) =>
    setPrice({ provider, model: model.trim(), unit, basis, micros }),
  );
  const amountInput = useRef<HTMLInputElement>(null);
  useFocusRequest('price', amountInput, active);
  return (
    <div className="cost-settings">
      <h3>{t('costs.settings.prices')}</h3>
      <PriceList />
      <CostEntryForm
        label={t('costs.settings.prices')}
        action={t('costs.settings.setPrice')}
        onSubmit={amount.submit}
      >
        <SelectField
          label={t('costs.settings.service')}
          value={provider}
          options={serviceChoices()}
          onChange={setProvider}
        />
        <ModelField value={model} onChange={setModel} />
        <AmountFields {...amount.fields} inputRef={amountInput} />
        <SelectField
          label={t('costs.settings.basis')}
          value={basis}
          options={basisChoices()}
          onChange={setBasis}
        />
      </CostEntryForm>
    </div>
  );
}
