/**
 * A search field with its icon and a label for screen readers only: the gallery's and Tasks'.
 * It takes no more than a search request may carry (MAX_SEARCH_CHARS), so what is typed is
 * always a search main accepts.
 */
import { useId, type RefObject } from 'react';
import { MAX_SEARCH_CHARS } from '../../shared/domain/limits';
import { Icon } from './icon';

export interface SearchInputProps {
  /** The field's place in its bar (its width and how it gives way). */
  readonly className: string;
  readonly label: string;
  readonly placeholder: string;
  readonly value: string;
  readonly onChange: (text: string) => void;
  /** Enter in the field (a bar that is not a form searches at once). */
  readonly onEnter?: () => void;
  readonly inputRef?: RefObject<HTMLInputElement | null>;
}

export function SearchInput(props: SearchInputProps) {
  const { className, label, placeholder, value, onChange, onEnter, inputRef } = props;
  const id = useId();
  return (
    <div className={`search-input ${className}`}>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <Icon name="search" className="search-input__icon" />
      <input
        id={id}
        ref={inputRef}
        className="input"
        type="search"
        value={value}
        placeholder={placeholder}
        maxLength={MAX_SEARCH_CHARS}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onEnter?.();
        }}
      />
    </div>
  );
}
