/**
 * A labelled one-line input bound to a string (a {@link Field} around an `<input>`): the label,
 * hint and problem wiring are Field's, the input's own attributes the caller's.
 */
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { Field, type FieldProps } from './field';

/** The input's attributes the caller may set; the value and its wiring are the field's. */
type InputAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'id' | 'className' | 'aria-invalid' | 'aria-describedby' | 'children'
>;

export interface TextFieldProps
  extends Pick<FieldProps, 'label' | 'className' | 'hint' | 'error'>, InputAttributes {
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The input's classes ('input' unless told). */
  inputClassName?: string;
  /** Drawn right after the input, inside the field (a datalist of suggestions). */
  after?: ReactNode;
}

export function TextField({
  label,
  className,
  hint,
  error,
  value,
  onChange,
  inputRef,
  inputClassName = 'input',
  after,
  ...input
}: TextFieldProps) {
  return (
    <Field label={label} className={className} hint={hint} error={error}>
      {(control) => (
        <>
          <input
            {...control}
            {...input}
            ref={inputRef}
            className={inputClassName}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
          {after}
        </>
      )}
    </Field>
  );
}
