/**
 * A select of presets with "Service default" and "Custom…": choosing custom shows a text field
 * checked as typed, with the reason shown under it. Used for size and quality.
 */
import { useId, useState, type Ref } from 'react';
import { t, type MessageKey } from '../i18n';
import type { ChoiceOption } from '../lib/request-options';

const CUSTOM = '__custom__';

export interface ChoiceFieldProps {
  label: string;
  options: readonly ChoiceOption[];
  value: string;
  custom: boolean;
  onChange: (value: string, custom: boolean) => void;
  customLabel: string;
  customPlaceholder: string;
  /** Why the custom text is refused (checked by the caller as typed). */
  error: MessageKey | undefined;
  /** Show an "empty" refusal even before the user typed (after a refused submit). */
  forceError?: boolean;
  /** The custom text is final (focus left it, or Enter): settings save here. */
  onCommit?: () => void;
  selectRef?: Ref<HTMLSelectElement>;
  customRef?: Ref<HTMLInputElement>;
  className?: string;
}

/** The service's default, the presets, then Custom. */
function ChoiceOptions({ options }: Pick<ChoiceFieldProps, 'options'>) {
  return (
    <>
      <option value="">{t('compose.serviceDefault')}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
      <option value={CUSTOM}>{t('compose.custom')}</option>
    </>
  );
}

export function ChoiceField(props: ChoiceFieldProps) {
  const { label, options, value, custom, onChange, error, forceError = false } = props;
  const selectId = useId();
  const errorId = useId();
  const [touched, setTouched] = useState(false);
  const showError = custom && error !== undefined && (touched || forceError || value !== '');
  return (
    <div className={['field', 'choice-field', props.className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={selectId}>
        {label}
      </label>
      <div className="choice-field__controls">
        <select
          id={selectId}
          ref={props.selectRef}
          className="select"
          value={custom ? CUSTOM : value}
          onChange={(event) => {
            const next = event.target.value;
            setTouched(false);
            // Custom starts from the current value, so a preset can be edited.
            if (next === CUSTOM) onChange(value, true);
            else onChange(next, false);
          }}
        >
          <ChoiceOptions options={options} />
        </select>
        {custom ? (
          <input
            ref={props.customRef}
            className="input choice-field__custom"
            aria-label={props.customLabel}
            placeholder={props.customPlaceholder}
            value={value}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={showError}
            aria-describedby={showError ? errorId : undefined}
            onChange={(event) => onChange(event.target.value, true)}
            onBlur={() => {
              setTouched(true);
              props.onCommit?.();
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') props.onCommit?.();
            }}
          />
        ) : null}
      </div>
      {custom ? (
        <p className="field__error" id={errorId} aria-live="polite">
          {showError && error ? t(error) : ''}
        </p>
      ) : null}
    </div>
  );
}
