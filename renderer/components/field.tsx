/**
 * One labelled form control: the label tied to it, an optional hint, and the reason it is wrong
 * under it. The control itself is the caller's; it receives the id and aria wiring to spread.
 */
import { useId, type ReactNode } from 'react';
import { ErrorMessage } from './error-message';

/** What the control spreads: its id, and whether and by what it is described as invalid. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A sentence, or an error from the main process with a detail behind "Details". */
export type FieldProblem = string | { message: string; detail?: string | undefined };

export interface FieldProps {
  label: ReactNode;
  /** Extra classes beside `field`. */
  className?: string;
  hint?: ReactNode;
  /** Ids of descriptions outside the field (a form's explanation), read before the hint. */
  describedBy?: string | undefined;
  /** Null or absent while the value is fine. */
  error?: FieldProblem | null | undefined;
  children: (control: FieldControl) => ReactNode;
}

export function Field({
  label,
  className,
  hint,
  describedBy: outside,
  error,
  children,
}: FieldProps) {
  const ids = { control: useId(), hint: useId(), error: useId() };
  const invalid = error !== undefined && error !== null;
  const describedBy = [outside, hint ? ids.hint : null, invalid ? ids.error : null].filter(Boolean);
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={ids.control}>
        {label}
      </label>
      {children({
        id: ids.control,
        'aria-invalid': invalid ? true : undefined,
        'aria-describedby': describedBy.length ? describedBy.join(' ') : undefined,
      })}
      {hint ? (
        <p className="field__hint" id={ids.hint}>
          {hint}
        </p>
      ) : null}
      {!invalid ? null : typeof error === 'string' ? (
        <p className="field__error" id={ids.error}>
          {error}
        </p>
      ) : (
        <ErrorMessage id={ids.error} message={error.message} detail={error.detail} />
      )}
    </div>
  );
}
