/**
 * A search field with its icon and a label for screen readers only: the gallery's and Tasks'.
 * It takes no more than a search request may carry (MAX_SEARCH_CHARS), so what is typed is
 * always a search main accepts.
 *
 * The field is the one home of when a search applies: once typing pauses, on Enter, and when the
 * focus leaves the field. Leaving matters: an action pressed before the pause ends (Select all,
 * a triage, an export) reads the APPLIED filters, and a search applied a moment after it would
 * act on, then undo, a selection of images the field no longer names. Leaving applies what the
 * field shows first, so an action always takes what the user reads.
 */
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { MAX_SEARCH_CHARS } from '../../shared/domain/limits';
import { Icon } from './icon';

/** How long typing pauses before the search applies. */
export const SEARCH_DEBOUNCE_MS = 250;

export interface SearchInputProps {
  /** The field's place in its bar (its width and how it gives way). */
  readonly className: string;
  readonly label: string;
  readonly placeholder: string;
  /** The search that applies now; the field follows it when it changes from outside ("Clear filters"). */
  readonly applied: string;
  /** Applies a search; called only with text other than `applied`. */
  readonly onApply: (text: string) => void;
  readonly inputRef?: RefObject<HTMLInputElement | null>;
}

export function SearchInput(props: SearchInputProps) {
  const { className, label, placeholder, applied, onApply, inputRef } = props;
  const id = useId();
  const [text, setText] = useState(applied);
  // What this field last applied: a change of `applied` to anything else came from outside.
  const sent = useRef(applied);
  useEffect(() => {
    if (applied !== sent.current) setText(applied);
    sent.current = applied;
  }, [applied]);
  const apply = (value: string): void => {
    if (value === applied) return;
    sent.current = value;
    onApply(value);
  };
  useEffect(() => {
    if (text === applied) return undefined;
    const timer = setTimeout(() => {
      sent.current = text;
      onApply(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, applied, onApply]);
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
        value={text}
        placeholder={placeholder}
        maxLength={MAX_SEARCH_CHARS}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => apply(text)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply(text);
        }}
      />
    </div>
  );
}
