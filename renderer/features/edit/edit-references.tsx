/**
 * Reference images beside the source: added from a file main opens or from the gallery's loaded
 * images, each removable, with the chosen models' limit said (a model that takes fewer is
 * disabled in the targets with its reason). The library image chosen is kept over a new language
 * (form-drafts.ts) until the panel closes.
 */
import { useId, useMemo, useState } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import type { InputImage } from '../../../shared/domain/image-inputs';
import { Button } from '../../components/button';
import { formatDateTime, t } from '../../i18n';
import { imageUrl } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import { selectGalleryItems } from '../../store/record-selectors';

const store = useAppStore.getState;
/** The loaded gallery images a reference may be taken from, newest first. */
const MAX_OFFERED = 50;

interface ReferencesProps {
  readonly references: readonly InputImage[];
  /** The chosen models' limit; null: no model chosen yet. */
  readonly limit: number | null;
  readonly onChange: (references: InputImage[]) => void;
}

type Added = Awaited<ReturnType<ReturnType<typeof store>['editReferenceFromFile']>>;

/**
 * A choice of the gallery's loaded images, shown as the gallery shows them (the thumbnail, the
 * date, the image's number in its task: a batch's images are told apart), and "Add from the
 * library". A radio group: arrows move between them.
 */
function LibraryAdder({ full, add }: { full: boolean; add: (answer: Added) => void }) {
  const items = useAppStore(selectGalleryItems);
  const name = useId();
  const library = useMemo(() => items.slice(0, MAX_OFFERED), [items]);
  const [picked, setPicked] = useFormDraft('references.pick', '');
  const chosen = picked || (library[0] ? keyOf(library[0]) : '');
  const fromLibrary = async () => {
    const item = library.find((one) => keyOf(one) === chosen);
    if (!item) return;
    add(await store().editReferenceFromLibrary({ localId: item.localId, index: item.index }));
  };
  if (library.length === 0) return null;
  return (
    <div className="edit-references__library">
      <fieldset className="edit-references__choices">
        <legend className="field__label">{t('edit.referenceLibrary')}</legend>
        {library.map((item) => (
          <LibraryChoice
            key={keyOf(item)}
            item={item}
            name={name}
            checked={keyOf(item) === chosen}
            onPick={() => setPicked(keyOf(item))}
          />
        ))}
      </fieldset>
      <Button size="small" disabled={full} onClick={() => void fromLibrary()}>
        {t('edit.referenceAddLibrary')}
      </Button>
    </div>
  );
}

const keyOf = (item: GalleryItem): string => `${item.localId}#${String(item.index)}`;

function LibraryChoice(props: {
  item: GalleryItem;
  name: string;
  checked: boolean;
  onPick: () => void;
}) {
  const { item } = props;
  const source = item.image.thumbnail ?? item.image.file;
  const date = formatDateTime(item.createdAt);
  const number = item.index + 1;
  return (
    <label className="edit-references__choice">
      <input
        type="radio"
        name={props.name}
        checked={props.checked}
        onChange={props.onPick}
        aria-label={t('edit.referenceOption', { prompt: item.prompt, date, number })}
      />
      {source ? <img src={imageUrl(source)} alt="" loading="lazy" /> : null}
      <span className="edit-references__facts" aria-hidden="true">
        <span dir="auto">{item.prompt}</span>
        <span>
          {date} · #{number}
        </span>
      </span>
    </label>
  );
}

export function EditReferences({ references, limit, onChange }: ReferencesProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const full = limit !== null && references.length >= limit;
  const add = (answer: Added) => {
    if (!answer.ok) return setProblem(answer.message);
    setProblem(null);
    if (answer.value) onChange([...references, answer.value]);
  };
  return (
    <fieldset className="edit-references">
      <legend className="field__label">{t('edit.references')}</legend>
      {limit === null ? null : (
        <p className="field__hint">{t('edit.referencesLimit', { count: limit })}</p>
      )}
      <ul>
        {references.map((reference, n) => (
          <li key={reference.sha256}>
            {t('edit.referenceItem', { index: n + 1 })}
            <Button size="small" onClick={() => onChange(references.filter((_, i) => i !== n))}>
              {t('edit.referenceRemove', { index: n + 1 })}
            </Button>
          </li>
        ))}
      </ul>
      <Button
        size="small"
        disabled={full}
        onClick={() => void store().editReferenceFromFile().then(add)}
      >
        {t('edit.referenceAddFile')}
      </Button>
      <LibraryAdder full={full} add={add} />
      {problem ? <p role="alert">{problem}</p> : null}
    </fieldset>
  );
}
