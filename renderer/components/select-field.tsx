/**
 * A label beside a native select of a fixed set of choices (a filter, an order): the choice
 * given to `onChange` is always one of `options`, so callers need not narrow the select's text.
 */
import { useId } from 'react';

export interface SelectChoice<T extends string> {
  readonly value: T;
  readonly label: string;
}

export interface SelectFieldProps<T extends string> {
  readonly label: string;
  readonly value: T;
  readonly options: readonly SelectChoice<T>[];
  readonly onChange: (value: T) => void;
  /** The wrapper's classes (its layout is the caller's). */
  readonly className?: string | undefined;
}

export function SelectField<T extends string>(props: SelectFieldProps<T>) {
  const { label, value, options, onChange, className } = props;
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          // A choice may be a name from elsewhere (a model the history holds): its own direction.
          <option key={option.value} value={option.value} dir="auto">
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
