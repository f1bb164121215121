/**
 * A service's address as Settings takes it: typed as a URL (left to right in every language, no
 * spelling or autofill), and where it is saved on its own, in a form with its Save beside it.
 */
import type { ReactNode, Ref } from 'react';
import { Button } from '../../components/button';
import { Field, type FieldProblem } from '../../components/field';
import { t } from '../../i18n';

/** How every address input is typed (connect-panel.tsx's too). */
export const ADDRESS_INPUT = {
  inputClassName: 'input mono',
  type: 'url',
  inputMode: 'url',
  dir: 'ltr',
  spellCheck: false,
  autoComplete: 'off',
} as const;

const { inputClassName, ...addressAttributes } = ADDRESS_INPUT;

export interface AddressSaveFormProps {
  label: string;
  hint: string;
  error: FieldProblem | null;
  value: string;
  placeholder: string;
  inputRef?: Ref<HTMLInputElement>;
  onText: (text: string) => void;
  /** What is typed differs from what is saved: Save can be pressed. */
  changed: boolean;
  onSave: () => void;
  /** Said under the field, inside the form. */
  children?: ReactNode;
}

/** An address saved on its own: the field, Save beside it, Enter saves. */
export function AddressSaveForm(props: AddressSaveFormProps) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSave();
      }}
    >
      <Field label={props.label} hint={props.hint} error={props.error}>
        {(control) => (
          <div className="inline-controls">
            <input
              {...control}
              {...addressAttributes}
              ref={props.inputRef}
              className={inputClassName}
              value={props.value}
              placeholder={props.placeholder}
              onChange={(event) => props.onText(event.target.value)}
            />
            <Button type="submit" variant="primary" disabled={!props.changed}>
              {t('common.save')}
            </Button>
          </div>
        )}
      </Field>
      {props.children}
    </form>
  );
}
