/**
 * The tag editor T opens for the images the keys name: the tags they have, each with how many of
 * them have it and a button that takes it off them all; a field whose Enter puts the typed tag on
 * every image, with the library's tags as suggestions (Up and Down choose one, Enter adds it).
 * Main checks the tag: its sentence shows under the field, which keeps the text (a new language
 * too; the dialog forgets it when it closes). Escape closes and the focus goes back to where it was.
 */
import { useId, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { foldName } from '../../../shared/domain/triage';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';
import { problemOf, type Problem } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import { galleryItemAt } from '../../store/record-selectors';
import type { ImageRef } from '../../store/gallery-delete';
import { OptionList } from './board-picker';

/** Suggestions shown at most. */
const MAX_SUGGESTIONS = 8;
const NO_TAGS: readonly { key: string; tag: string }[] = [];

interface TagShare {
  readonly key: string;
  readonly tag: string;
  readonly count: number;
}

/** The images as the records table holds them now (a tag added shows at once). */
function useLiveItems(items: readonly GalleryItem[]): readonly GalleryItem[] {
  const records = useAppStore((s) => s.records);
  return useMemo(() => items.map((item) => galleryItemAt(records, item) ?? item), [items, records]);
}

/** Each tag the images have, with how many have it, most first, then by name. */
function sharesOf(items: readonly GalleryItem[]): TagShare[] {
  const shares = new Map<string, TagShare>();
  for (const item of items) {
    for (const tag of item.image.tags ?? []) {
      const key = foldName(tag);
      const known = shares.get(key);
      shares.set(key, { key, tag: known?.tag ?? tag, count: (known?.count ?? 0) + 1 });
    }
  }
  return [...shares.values()].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** The library's tags that match the text and that not every image has yet. */
function suggestionsOf(
  library: readonly { readonly key: string; readonly tag: string }[],
  text: string,
  shares: readonly TagShare[],
  total: number,
): string[] {
  const everywhere = new Set(shares.filter((s) => s.count === total).map((s) => s.key));
  const wanted = foldName(text.trim());
  return library
    .filter((tag) => !everywhere.has(tag.key) && (wanted === '' || tag.key.includes(wanted)))
    .slice(0, MAX_SUGGESTIONS)
    .map((tag) => tag.tag);
}

function TagList(props: {
  shares: readonly TagShare[];
  total: number;
  onRemove: (tag: string) => void;
}) {
  if (props.shares.length === 0) return <p className="muted">{t('triage.tagsEditor.none')}</p>;
  return (
    <ul className="tag-editor__tags" aria-label={t('triage.tagsEditor.current')}>
      {props.shares.map((share) => (
        <li key={share.key} className="tag-editor__tag">
          <span className="tag-editor__name">{share.tag}</span>
          <span className="muted">
            {t('triage.tagsEditor.share', { count: share.count, total: props.total })}
          </span>
          <IconButton
            icon="close"
            size="small"
            label={t('triage.tagsEditor.remove', { tag: share.tag })}
            onClick={() => props.onRemove(share.tag)}
          />
        </li>
      ))}
    </ul>
  );
}

/** Adding and taking off a tag, main's refusal kept to show. */
function useTagChanges(refs: readonly ImageRef[], items: readonly GalleryItem[]) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const change = async (tag: string, add: boolean): Promise<boolean> => {
    setProblem(null);
    try {
      const change = { kind: 'tag', tag, add } as const;
      await useAppStore.getState().triageApply(refs, change, items, { throws: true });
      return true;
    } catch (error) {
      setProblem(problemOf(error));
      return false;
    }
  };
  return { problem, change };
}

interface TagFieldProps {
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly suggestions: readonly string[];
  /** The suggestion chosen with Up and Down; -1: the text typed. */
  readonly active: number;
  readonly onActive: (update: (active: number) => number) => void;
  readonly onAdd: (tag: string) => void;
  readonly problem: Problem | null;
  readonly fieldRef: RefObject<HTMLInputElement | null>;
}

/** The field that adds a tag, its hint, main's refusal, and the library's tags to choose from. */
function TagField(props: TagFieldProps) {
  const { text, suggestions, active, problem } = props;
  const ids = useId();
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step !== 0 && suggestions.length > 0) {
      event.preventDefault();
      props.onActive((at) => Math.min(suggestions.length - 1, Math.max(-1, at + step)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const tag = suggestions[active] ?? text;
      if (tag !== '') props.onAdd(tag);
    }
  };
  return (
    <div className="field tag-editor__field">
      <label className="field__label" htmlFor={`${ids}-field`}>
        {t('triage.tagsEditor.field')}
      </label>
      <input
        ref={props.fieldRef}
        id={`${ids}-field`}
        className="input"
        role="combobox"
        aria-expanded={suggestions.length > 0}
        aria-controls={`${ids}-list`}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${ids}-s${String(active)}` : undefined}
        aria-describedby={`${ids}-hint${problem ? ` ${ids}-problem` : ''}`}
        aria-invalid={problem ? true : undefined}
        autoComplete="off"
        data-autofocus
        value={text}
        onChange={(event) => props.onText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p className="field__hint" id={`${ids}-hint`}>
        {t('triage.tagsEditor.hint')}
      </p>
      {problem ? (
        <ErrorMessage id={`${ids}-problem`} message={problem.message} detail={problem.detail} />
      ) : null}
      <OptionList
        id={`${ids}-list`}
        label={t('triage.tagsEditor.suggestions')}
        options={suggestions}
        active={active}
        optionId={(n) => `${ids}-s${String(n)}`}
        onPick={(n) => {
          const tag = suggestions[n];
          if (tag !== undefined) props.onAdd(tag);
        }}
      />
    </div>
  );
}

export function TagEditor(props: {
  refs: readonly ImageRef[];
  items: readonly GalleryItem[];
  onClose: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const items = useLiveItems(props.items);
  const shares = useMemo(() => sharesOf(items), [items]);
  const library = useAppStore((s) => s.triageLibrary?.tags ?? NO_TAGS);
  // The store's (form-drafts.ts): a new language draws the dialog anew with what is typed.
  const [text, setText] = useFormDraft('triage.tagText', '');
  const [active, setActive] = useState(-1);
  const suggestions = suggestionsOf(library, text, shares, items.length);
  const { problem, change } = useTagChanges(props.refs, items);
  const add = async (tag: string): Promise<void> => {
    if (await change(tag, true)) {
      setText('');
      setActive(-1);
    }
  };
  return (
    <Dialog
      title={t('triage.tagsEditor.title', { count: props.refs.length })}
      onClose={props.onClose}
    >
      <TagList
        shares={shares}
        total={items.length}
        onRemove={(tag) => {
          field.current?.focus();
          void change(tag, false);
        }}
      />
      <TagField
        text={text}
        onText={(value) => {
          setText(value);
          setActive(-1);
        }}
        suggestions={suggestions}
        active={active}
        onActive={setActive}
        onAdd={(tag) => void add(tag)}
        problem={problem}
        fieldRef={field}
      />
    </Dialog>
  );
}
