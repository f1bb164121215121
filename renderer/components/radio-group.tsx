/**
 * A legend (`label`) over radio buttons of a fixed set of choices (a setting's options): one
 * group by name, the checked one is `value`, and a choice goes to `onChange` as one of `options`.
 */
import { useId } from 'react';
import type { SelectFieldProps } from './select-field';

/** SelectField's choices, drawn as radios under a legend (`label`). */
export interface RadioGroupProps<T extends string> extends Omit<SelectFieldProps<T>, 'className'> {
  /** The id of what describes the group (a hint under it). */
  readonly describedBy?: string | undefined;
}

export function RadioGroup<T extends string>(props: RadioGroupProps<T>) {
  const name = useId();
  return (
    <fieldset className="radio-group" aria-describedby={props.describedBy}>
      <legend className="field__label">{props.label}</legend>
      {props.options.map((option) => (
        <label key={option.value} className="checkbox">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={props.value === option.value}
            onChange={() => props.onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
