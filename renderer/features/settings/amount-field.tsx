/** The amount of a price or a cap, typed as a plain decimal (`0.04`), and the unit it is in. */
import { useState, type Ref } from 'react';
import type { AmountKind } from '../../../shared/domain/cost-amounts';
import type { CostUnit } from '../../../shared/domain/task-cost';
import { TextField } from '../../components/text-field';
import { SelectField } from '../../components/select-field';
import { t } from '../../i18n';
import { useFormDraft } from '../../store/use-form-draft';
import { readAmount, unitChoices } from './cost-choices';

interface AmountProps {
  amount: string;
  onAmount: (text: string) => void;
  unit: CostUnit;
  onUnit: (unit: CostUnit) => void;
  error: string | null;
}

export function AmountFields(props: AmountProps & { inputRef?: Ref<HTMLInputElement> }) {
  return (
    <>
      <TextField
        label={t('costs.settings.amount')}
        error={props.error}
        inputMode="decimal"
        {...(props.inputRef ? { inputRef: props.inputRef } : {})}
        value={props.amount}
        onChange={props.onAmount}
      />
      <SelectField
        label={t('costs.settings.unit')}
        value={props.unit}
        options={unitChoices()}
        onChange={props.onUnit}
      />
    </>
  );
}

/**
 * The amount typed for a `kind` and its unit, for {@link AmountFields}; `submit` reads it (a
 * refusal is said under the field) and hands its micros to `save`, and a saved amount is cleared.
 */
export function useAmountEntry(
  kind: AmountKind,
  save: (unit: CostUnit, micros: number) => Promise<boolean>,
): { fields: AmountProps; submit: () => Promise<void> } {
  const [amount, setAmount] = useFormDraft(`${kind}.amount`, '');
  const [unit, setUnit] = useFormDraft(`${kind}.unit`, 'USD');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const read = readAmount(amount, unit, kind);
    if ('error' in read) return setError(read.error);
    setError(null);
    if (await save(unit, read.micros)) setAmount('');
  };
  return { fields: { amount, onAmount: setAmount, unit, onUnit: setUnit, error }, submit };
}
