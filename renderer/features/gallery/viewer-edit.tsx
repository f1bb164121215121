/**
 * The viewer's images-as-inputs part: "Edit…", "Upscale ×2", "Upscale ×4" and "Expand…" open the
 * edit panel on the image shown; its stack (original → edits → upscales) as a strip the user
 * steps through (←/→, Home/End), each version with its operation and model; and "Compare with
 * original" on the version chosen in the strip. The version chosen, and its comparison open, are
 * kept over a new language (form-drafts.ts) while the viewer shows this image.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import type { Answer, EditStart, StackImage } from '../../store/edit-slice';
import { BeforeAfter } from './before-after';

const store = useAppStore.getState;

/**
 * The stack of the image shown, read again for each image and when an edit's result is saved (a
 * version sent from this viewer joins the strip while it is open). An answer is kept with the
 * image it is for: another image shows nothing until its own comes (never the last one's
 * versions for a frame), while the same image keeps its strip until the new answer replaces it.
 */
function useStack(item: GalleryItem): Answer<StackImage[]> | null {
  const { localId, index } = item;
  const key = `${localId}#${String(index)}`;
  const [stack, setStack] = useState<{ key: string; answer: Answer<StackImage[]> } | null>(null);
  const resultsSeen = useAppStore((state) => state.editResultsSeen);
  useEffect(() => {
    let current = true;
    void store()
      .editStack({ localId, index })
      .then((answer) => current && setStack({ key, answer }));
    return () => {
      current = false;
    };
  }, [key, localId, index, resultsSeen]);
  return stack?.key === key ? stack.answer : null;
}

/** "Original", or "Upscale ×2 · Real-ESRGAN". */
function versionLabel(image: StackImage): string {
  const { entry } = image;
  if (!entry?.operation) return t('edit.stackOriginal');
  return t('edit.stackEntry', {
    operation: entry.operation,
    factor: entry.factor ?? 2,
    model: entry.model ?? entry.provider,
  });
}

function EditButtons({ item }: { item: GalleryItem }) {
  const saved = item.image.state === 'saved';
  const open = (start: EditStart) =>
    void store().editOpenFromLibrary(
      { localId: item.localId, index: item.index },
      item.prompt,
      start,
    );
  return (
    <div className="viewer-details__actions" role="group" aria-label={t('edit.title')}>
      <Button disabled={!saved} onClick={() => open({ operation: 'edit' })}>
        {t('edit.open')}
      </Button>
      <Button disabled={!saved} onClick={() => open({ operation: 'upscale', factor: 2 })}>
        {t('edit.upscale', { factor: 2 })}
      </Button>
      <Button disabled={!saved} onClick={() => open({ operation: 'upscale', factor: 4 })}>
        {t('edit.upscale', { factor: 4 })}
      </Button>
      <Button disabled={!saved} onClick={() => open({ operation: 'outpaint' })}>
        {t('edit.expand')}
      </Button>
    </div>
  );
}

/** Where the image shown sits in its stack (the original when it is not in it). */
function placeOf(images: readonly StackImage[], item: GalleryItem): number {
  const at = images.findIndex((one) => one.localId === item.localId && one.index === item.index);
  return Math.max(0, at);
}

/**
 * The version chosen in the strip (the image's own until one is) and whether it is compared with
 * the original: kept in the form drafts for this image, so a new language keeps them.
 */
function useChosenVersion(images: readonly StackImage[], item: GalleryItem) {
  const image = `${item.localId}#${String(item.index)}`;
  const [kept, keep] = useFormDraft('viewer.stack', null);
  const own = kept?.image === image ? kept : null;
  const chosen = own?.chosen ?? placeOf(images, item);
  const comparing = own?.comparing ?? false;
  return {
    chosen,
    comparing,
    setChosen: (next: number) => keep({ image, chosen: next, comparing }),
    setComparing: (next: boolean) => keep({ image, chosen, comparing: next }),
  };
}

function StackStrip({ images, item }: { images: readonly StackImage[]; item: GalleryItem }) {
  const { chosen, comparing, setChosen, setComparing } = useChosenVersion(images, item);
  const step = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowLeft: chosen - 1,
      ArrowRight: chosen + 1,
      Home: 0,
      End: images.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    setChosen(Math.max(0, Math.min(images.length - 1, next)));
  };
  const shown = images[chosen];
  const original = images[0];
  return (
    <section className="viewer-stack" aria-label={t('edit.stack')}>
      <h3 className="viewer-details__heading">{t('edit.stack')}</h3>
      <div
        className="viewer-stack__strip"
        role="listbox"
        aria-label={t('edit.stack')}
        tabIndex={0}
        aria-activedescendant={`stack-${String(chosen)}`}
        onKeyDown={step}
      >
        {images.map((image, n) => (
          <div
            key={`${image.localId ?? 'input'}-${String(image.index)}-${String(n)}`}
            id={`stack-${String(n)}`}
            role="option"
            aria-selected={n === chosen}
            className="viewer-stack__item"
            onClick={() => setChosen(n)}
          >
            {image.url ? <img src={image.url} alt="" /> : <span>{t('edit.stackMissing')}</span>}
            <span className="viewer-stack__label">{versionLabel(image)}</span>
          </div>
        ))}
      </div>
      <p aria-live="polite">{t('edit.stackShown', { index: chosen + 1, count: images.length })}</p>
      <Button
        disabled={chosen === 0 || !shown?.url || !original?.url}
        onClick={() => setComparing(true)}
      >
        {t('edit.compareOriginal')}
      </Button>
      {comparing && shown?.url && original?.url ? (
        <BeforeAfter before={original.url} after={shown.url} onClose={() => setComparing(false)} />
      ) : null}
    </section>
  );
}

export function ViewerEdit({ item }: { item: GalleryItem }) {
  const stack = useStack(item);
  const images = stack?.ok ? stack.value : [];
  return (
    <>
      <EditButtons item={item} />
      {images.length > 1 ? (
        <StackStrip key={`${item.localId}-${String(item.index)}`} images={images} item={item} />
      ) : null}
    </>
  );
}
