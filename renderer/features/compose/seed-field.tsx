/**
 * The seed: empty by default (the service draws one, and the task shows it when the service says
 * it), a seed typed or brought back ("Use this seed") is sent with the next submit, and the lock
 * keeps it for every submit after, until it is taken off.
 */
import { useId } from 'react';
import { Field } from '../../components/field';
import { t } from '../../i18n';

interface SeedFieldProps {
  readonly text: string;
  readonly locked: boolean;
  readonly onChange: (text: string, locked: boolean) => void;
  readonly problem?: string | undefined;
}

export function SeedField({ text, locked, onChange, problem }: SeedFieldProps) {
  const lockId = useId();
  return (
    <Field
      label={t('compose.option.seed')}
      className="compose__option compose__seed"
      error={problem}
    >
      {(control) => (
        <span className="compose__seed-row">
          <input
            {...control}
            className="input"
            inputMode="numeric"
            value={text}
            placeholder={t('compose.seed.random')}
            onChange={(event) => onChange(event.target.value, locked)}
          />
          <input
            id={lockId}
            type="checkbox"
            checked={locked}
            onChange={(event) => onChange(text, event.target.checked)}
          />
          <label htmlFor={lockId}>{t('compose.seed.lock')}</label>
        </span>
      )}
    </Field>
  );
}
