/**
 * Reference images beside the source: added from a file main opens or from the gallery's loaded
 * images, each removable, with the chosen models' limit said (a model that takes fewer is
 * disabled in the targets with its reason).
 */
import { useMemo, useState } from 'react';
import type { InputImage } from '../../../shared/domain/image-inputs';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select-field';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

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

/** A choice of the gallery's loaded images and "Add from the library". */
function LibraryAdder({ full, add }: { full: boolean; add: (answer: Added) => void }) {
  const items = useAppStore((state) => state.galleryItems);
  const library = useMemo(
    () =>
      items.slice(0, MAX_OFFERED).map((item) => ({
        value: `${item.localId}#${String(item.index)}`,
        label: item.prompt || item.localId,
      })),
    [items],
  );
  const [picked, setPicked] = useState('');
  const fromLibrary = async () => {
    const [localId, index] = (picked || library[0]?.value || '').split('#');
    if (!localId || index === undefined) return;
    add(await store().editReferenceFromLibrary({ localId, index: Number(index) }));
  };
  if (library.length === 0) return null;
  return (
    <div className="edit-references__library">
      <SelectField
        label={t('edit.referenceLibrary')}
        value={picked || (library[0]?.value ?? '')}
        options={library}
        onChange={setPicked}
      />
      <Button size="small" disabled={full} onClick={() => void fromLibrary()}>
        {t('edit.referenceAddLibrary')}
      </Button>
    </div>
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
