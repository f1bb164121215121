/**
 * A board chosen by typing (the ARIA combobox pattern with a list): the field filters the boards
 * as one types, its first match becoming the active option; Up and Down move through the list
 * while the focus stays in the field, Enter (or a click) chooses. The first option (no board, or
 * the top level) is always there. Used by the target board's chooser and by "Move to…".
 */
import { useId, useMemo, type KeyboardEvent } from 'react';
import { foldName } from '../../../shared/domain/triage';
import { t } from '../../i18n';
import type { Problem } from '../../lib/api';
import { ErrorMessage } from '../../components/error-message';
import { useFormDraft } from '../../store/use-form-draft';

export interface PickerOption {
  /** A board's path, or '' for the first option (no board, the top level). */
  readonly id: string;
  readonly label: string;
}

export interface BoardPickerProps {
  readonly label: string;
  readonly listLabel: string;
  /** The first option, then the boards. */
  readonly options: readonly PickerOption[];
  /** The option active at first. */
  readonly initial: string;
  readonly onPick: (id: string) => void;
  /** Main's refusal of the last choice. */
  readonly problem?: Problem | null;
}

/** The options the text matches (the first always), by a case-insensitive part of the label. */
function matching(options: readonly PickerOption[], text: string): PickerOption[] {
  const wanted = foldName(text.trim());
  if (wanted === '') return [...options];
  return options.filter((option, n) => n === 0 || foldName(option.label).includes(wanted));
}

/** The text typed, the active option, and the keys of the field. */
function usePicker(props: BoardPickerProps) {
  const { options, onPick } = props;
  // The store's (form-drafts.ts): a new language draws the dialog anew with what is typed, and
  // the same board active. Its dialog forgets it when it opens or closes.
  const [kept, keep] = useFormDraft('boards.picker', { text: '', active: props.initial });
  const { text, active } = kept;
  const setActive = (id: string): void => keep({ text, active: id });
  const shown = useMemo(() => matching(options, text), [options, text]);
  const at = Math.max(
    0,
    shown.findIndex((option) => option.id === active),
  );
  const type = (value: string): void => {
    // Type-ahead: the first board that matches (not the first option) becomes the active one.
    const found = matching(options, value);
    keep({
      text: value,
      active: (value.trim() === '' ? props.initial : found[1]?.id) ?? found[0]?.id ?? '',
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step !== 0) {
      event.preventDefault();
      const next = shown[Math.min(shown.length - 1, Math.max(0, at + step))];
      if (next) setActive(next.id);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // Text that matches no board chooses nothing (not the first option unasked).
      const none = text.trim() !== '' && shown.length === 1;
      const chosen = shown[at];
      if (chosen && !none) onPick(chosen.id);
    }
  };
  return { text, shown, at, type, onKeyDown };
}

export function BoardPicker(props: BoardPickerProps) {
  const { problem } = props;
  const ids = useId();
  const { text, shown, at, type, onKeyDown } = usePicker(props);
  const optionId = (n: number) => `${ids}-option-${String(n)}`;
  return (
    <div className="board-picker">
      <label className="field__label" htmlFor={`${ids}-field`}>
        {props.label}
      </label>
      <input
        id={`${ids}-field`}
        className="input"
        role="combobox"
        aria-expanded="true"
        aria-controls={`${ids}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown.length > 0 ? optionId(at) : undefined}
        aria-describedby={problem ? `${ids}-problem` : undefined}
        aria-invalid={problem ? true : undefined}
        autoComplete="off"
        spellCheck={false}
        data-autofocus
        value={text}
        onChange={(event) => type(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <OptionList
        id={`${ids}-list`}
        label={props.listLabel}
        options={shown.map((option) => option.label)}
        active={at}
        optionId={optionId}
        onPick={(n) => {
          const option = shown[n];
          if (option) props.onPick(option.id);
        }}
      />
      {shown.length === 1 && text.trim() !== '' ? (
        <p className="board-picker__none">{t('triage.chooser.noMatch', { text: text.trim() })}</p>
      ) : null}
      {problem ? (
        <ErrorMessage id={`${ids}-problem`} message={problem.message} detail={problem.detail} />
      ) : null}
    </div>
  );
}

/** A combobox's list: the field keeps the focus, a click picks (board picker, tag editor). */
export function OptionList(props: {
  id: string;
  label: string;
  options: readonly string[];
  /** The active option's index; -1: none. */
  active: number;
  optionId: (index: number) => string;
  onPick: (index: number) => void;
}) {
  return (
    <ul
      id={props.id}
      role="listbox"
      aria-label={props.label}
      className="board-picker__list"
      hidden={props.options.length === 0}
    >
      {props.options.map((label, n) => (
        <li
          key={label}
          id={props.optionId(n)}
          role="option"
          aria-selected={n === props.active}
          className="board-picker__option"
          // The field keeps the focus (and its active option) through the click.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => props.onPick(n)}
        >
          {label}
        </li>
      ))}
    </ul>
  );
}
