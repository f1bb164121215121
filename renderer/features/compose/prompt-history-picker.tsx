/**
 * The prompt history picker (Ctrl/Cmd+Shift+H, View › Prompt History…): the prompts sent from any
 * front, pinned first, then newest; typing searches them. The search field keeps the focus and
 * owns the list as a combobox does (aria-activedescendant): Up and Down move the active prompt,
 * Enter puts it into the prompt box (the rest of the draft stays), Esc closes and gives the focus
 * back. Pin, Unpin and Forget act on the active prompt from the footer, and on any row by mouse.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { MAX_PROMPT_QUERY, type PromptEntryOutput } from '../../../shared/ipc/prompt-contract';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import './prompt-history-picker.css';

function usePicker() {
  return useAppStore(
    useShallow((state) => ({
      query: state.promptHistoryQuery,
      entries: state.promptHistoryEntries,
      loaded: state.promptHistoryLoaded,
      error: state.promptHistoryError,
      search: state.promptHistorySearch,
      pin: state.promptHistoryPin,
      forget: state.promptHistoryForget,
      use: state.promptHistoryUse,
      show: state.promptHistoryShow,
    })),
  );
}

/**
 * The active row: moved by Up and Down, back to the first for each new search. It follows its
 * prompt when the list changes under it (a pin moves it up); a forgotten one leaves its place to
 * the next.
 */
function useActiveRow(entries: readonly PromptEntryOutput[], query: string) {
  const [at, setAt] = useState<{ prompt: string | null; index: number }>({
    prompt: null,
    index: 0,
  });
  useEffect(() => setAt({ prompt: null, index: 0 }), [query]);
  const found = entries.findIndex((entry) => entry.prompt === at.prompt);
  const index = found >= 0 ? found : Math.max(0, Math.min(at.index, entries.length - 1));
  const goTo = (next: number) => {
    const to = Math.max(0, Math.min(next, entries.length - 1));
    setAt({ prompt: entries[to]?.prompt ?? null, index: to });
  };
  return { index, move: (step: 1 | -1) => goTo(index + step), goTo };
}

interface RowsProps {
  readonly listId: string;
  /** The picker's entries, and what a row's click does. */
  readonly picker: ReturnType<typeof usePicker>;
  /** The active row: the mouse moves it too. */
  readonly row: Pick<ReturnType<typeof useActiveRow>, 'index' | 'goTo'>;
}

const optionId = (listId: string, index: number) => `${listId}-${String(index)}`;

/** The rows. Their own buttons are the mouse's way; the keyboard's is the footer's. */
function PromptRows({ listId, picker, row }: RowsProps) {
  const { index: active, goTo: onActive } = row;
  return (
    <ul
      id={listId}
      role="listbox"
      className="prompt-history__list"
      aria-label={t('compose.history.list')}
    >
      {picker.entries.map((entry, n) => (
        <li
          key={entry.prompt}
          id={optionId(listId, n)}
          role="option"
          aria-selected={n === active}
          className="prompt-history__option"
          // The search field keeps the focus (and its caret) while a row is clicked.
          onMouseDown={(event) => event.preventDefault()}
          onMouseMove={() => (n === active ? undefined : onActive(n))}
          onClick={() => picker.use(entry.prompt)}
        >
          {entry.pinned ? (
            <span className="prompt-history__pinned">{t('compose.history.pinned')}</span>
          ) : null}
          {entry.pinned ? ' ' : null}
          <span className="prompt-history__text" dir="auto">
            {entry.prompt}
          </span>
          <span className="prompt-history__row-actions" aria-hidden="true">
            <RowButton onClick={() => void picker.pin(entry.prompt, !entry.pinned)}>
              {t(entry.pinned ? 'compose.history.unpin' : 'compose.history.pin')}
            </RowButton>
            <RowButton onClick={() => void picker.forget(entry.prompt)}>
              {t('compose.history.forget')}
            </RowButton>
          </span>
        </li>
      ))}
    </ul>
  );
}

function RowButton({ onClick, children }: { onClick: () => void; children: string }) {
  return (
    <button
      type="button"
      tabIndex={-1}
      className="prompt-history__row-button"
      onClick={(event) => {
        event.stopPropagation();
        onClick();
      }}
    >
      {children}
    </button>
  );
}

interface FooterProps {
  readonly entry: PromptEntryOutput | undefined;
  readonly picker: ReturnType<typeof usePicker>;
  /** Back to the search field, where Up and Down go on from the same row. */
  readonly refocus: () => void;
}

/** Pin or Unpin, and Forget, for the active prompt. */
function PickerFooter({ entry, picker, refocus }: FooterProps) {
  if (!entry) return null;
  const act = (work: () => Promise<void>) => () => {
    void work();
    refocus();
  };
  return (
    <>
      <Button onClick={act(() => picker.pin(entry.prompt, !entry.pinned))}>
        {t(entry.pinned ? 'compose.history.unpin' : 'compose.history.pin')}
      </Button>
      <Button onClick={act(() => picker.forget(entry.prompt))}>
        {t('compose.history.forget')}
      </Button>
    </>
  );
}

interface SearchProps {
  readonly listId: string;
  readonly hintId: string;
  readonly activeId: string | undefined;
  readonly query: string;
  readonly onSearch: (query: string) => void;
  readonly onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  readonly inputRef: RefObject<HTMLInputElement | null>;
}

/** The search field: it keeps the focus and names the active row (a combobox over the list). */
function PickerSearch(props: SearchProps) {
  const { listId, hintId, activeId, query, onSearch, onKeyDown, inputRef } = props;
  return (
    <input
      ref={inputRef}
      data-autofocus
      type="search"
      role="combobox"
      className="input prompt-history__search"
      aria-label={t('compose.history.search')}
      aria-expanded="true"
      aria-controls={listId}
      aria-autocomplete="list"
      aria-activedescendant={activeId}
      aria-describedby={hintId}
      dir="auto"
      autoComplete="off"
      spellCheck={false}
      maxLength={MAX_PROMPT_QUERY}
      value={query}
      onChange={(event) => onSearch(event.target.value)}
      onKeyDown={onKeyDown}
    />
  );
}

function PickerDialog() {
  const picker = usePicker();
  const { query, entries, loaded, error } = picker;
  const listId = useId();
  const hintId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const row = useActiveRow(entries, query);
  const { index, move } = row;
  const entry = entries[index];
  useEffect(() => {
    document.getElementById(optionId(listId, index))?.scrollIntoView?.({ block: 'nearest' });
  }, [listId, index]);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && entry) {
      event.preventDefault();
      picker.use(entry.prompt);
    }
  };
  return (
    <Dialog
      title={t('compose.history.title')}
      onClose={() => picker.show(false)}
      size="large"
      footer={
        <PickerFooter entry={entry} picker={picker} refocus={() => searchRef.current?.focus()} />
      }
    >
      <PickerSearch
        listId={listId}
        hintId={hintId}
        activeId={entry ? optionId(listId, index) : undefined}
        query={query}
        onSearch={(text) => void picker.search(text)}
        onKeyDown={onKeyDown}
        inputRef={searchRef}
      />
      <p id={hintId} className="prompt-history__hint">
        {t('compose.history.hint')}
      </p>
      {error ? <ErrorMessage message={error.text()} detail={error.detail} /> : null}
      {loaded && entries.length === 0 ? (
        <p className="prompt-history__empty" role="status">
          {query.trim() === ''
            ? t('compose.history.empty')
            : t('compose.history.noMatch', { query })}
        </p>
      ) : null}
      <PromptRows listId={listId} picker={picker} row={row} />
    </Dialog>
  );
}

/** The picker, while the store says it is open. */
export function PromptHistoryPicker() {
  const open = useAppStore((state) => state.promptHistoryOpen);
  return open ? <PickerDialog /> : null;
}
