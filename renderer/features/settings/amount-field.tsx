/** The amount of a price or a cap, typed as a plain decimal (`0.04`), and the unit it is in. */
import type { CostUnit } from '../../../shared/domain/task-cost';
import { Field } from '../../components/field';
import { SelectField } from '../../components/select-field';
import { t } from '../../i18n';
import { unitChoices } from './cost-choices';

export function AmountFields(props: {
  amount: string;
  onAmount: (text: string) => void;
  unit: CostUnit;
  onUnit: (unit: CostUnit) => void;
  error: string | null;
}) {
  return (
    <>
      <Field label={t('costs.settings.amount')} error={props.error}>
        {(control) => (
          <input
            {...control}
            className="input"
            inputMode="decimal"
            value={props.amount}
            onChange={(event) => props.onAmount(event.target.value)}
          />
        )}
      </Field>
      <SelectField
        label={t('costs.settings.unit')}
        value={props.unit}
        options={unitChoices()}
        onChange={props.onUnit}
      />
    </>
  );
}
