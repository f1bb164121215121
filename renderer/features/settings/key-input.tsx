/**
 * The masked field a key is typed into (Settings' key section and the Connect panel): a password
 * field that no browser fills in or spell-checks, since a spell checker may send what it checks
 * to a dictionary service.
 */
import type { RefObject } from 'react';
import type { FieldControl } from '../../components/field';
import { t } from '../../i18n';

export interface KeyInputProps {
  /** The Field's id and descriptions. */
  readonly control: FieldControl;
  readonly value: string;
  readonly onText: (text: string) => void;
  readonly inputRef?: RefObject<HTMLInputElement | null>;
  /** Read-only keeps the focus in the field (a question open beside it); disabled does not. */
  readonly readOnly?: boolean;
  readonly disabled?: boolean;
}

export function KeyInput({ control, value, onText, inputRef, readOnly, disabled }: KeyInputProps) {
  return (
    <input
      {...control}
      ref={inputRef}
      className="input mono"
      type="password"
      value={value}
      autoComplete="off"
      spellCheck={false}
      placeholder={t('settings.key.placeholder')}
      readOnly={readOnly}
      disabled={disabled}
      onChange={(event) => onText(event.target.value)}
    />
  );
}
