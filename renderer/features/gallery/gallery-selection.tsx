/**
 * The gallery's multi-selection: Ctrl/Cmd-click or Space toggles an image,
 * Shift extends from the last one, Ctrl/Cmd+A selects every loaded image, Escape clears; while
 * something is selected a plain click selects too, as photo libraries do. A toolbar with the
 * count acts on the selection: favourite, export to a folder, move to the trash (one question
 * for all, then Undo). Ctrl/Cmd+Z in the grid undoes the last delete.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/dialog';
import { t } from '../../i18n';
import { problemOf, type Problem } from '../../lib/api';
import {
  clickSelection,
  emptySelection,
  keySelection,
  retainSelection,
  selectedInOrder,
  type ClickModifiers,
  type Selection,
} from '../../lib/selection';
import { useAppStore } from '../../store/app-store';
import { itemKey } from '../../store/gallery-list-model';
import { isUndoKey } from './gallery-viewer';
import { deleteWithUndo, type ImageActions } from './use-image-actions';
import './gallery-selection.css';

const store = useAppStore.getState;

export interface GallerySelectionState {
  readonly selected: ReadonlySet<string>;
  /** The selected images in the grid's order. */
  readonly items: readonly GalleryItem[];
  readonly onSelect: (key: string, modifiers: ClickModifiers) => void;
  readonly clear: () => void;
  /** Keys on the grid: Ctrl/Cmd+A, Escape, Ctrl/Cmd+Z. */
  readonly onKeyDown: (event: KeyboardEvent) => void;
}

/** The selection over the loaded images; images that leave the list leave the selection. */
export function useGallerySelection(
  items: readonly GalleryItem[],
  actions: Pick<ImageActions, 'undo'>,
): GallerySelectionState {
  const [selection, setSelection] = useState<Selection<string>>(emptySelection);
  const order = useMemo(() => items.map(itemKey), [items]);
  const byKey = useMemo(() => new Map(items.map((item) => [itemKey(item), item])), [items]);
  useEffect(() => {
    setSelection((current) => retainSelection(current, (key) => byKey.has(key)));
  }, [byKey]);

  const onSelect = useCallback(
    (key: string, modifiers: ClickModifiers) =>
      setSelection((current) => clickSelection(current, order, key, modifiers)),
    [order],
  );
  const clear = useCallback(() => setSelection(emptySelection()), []);
  const onKeyDown = (event: KeyboardEvent): void => {
    // Only on the grid itself: text fields keep Ctrl+A, Ctrl+Z and Escape.
    if (!(event.target as HTMLElement).closest('[role="grid"]')) return;
    if (isUndoKey(event)) {
      event.preventDefault();
      actions.undo();
      return;
    }
    const next = keySelection(selection, order, event);
    if (next === selection) return;
    event.preventDefault();
    event.stopPropagation();
    setSelection(next);
  };
  const selectedItems = useMemo(
    () =>
      selectedInOrder(selection, order)
        .map((key) => byKey.get(key))
        .filter((item): item is GalleryItem => item !== undefined),
    [selection, order, byKey],
  );
  return { selected: selection.ids, items: selectedItems, onSelect, clear, onKeyDown };
}

/** Runs a selection action: its sentence as a toast, its failure as a problem shown in the bar. */
function useSelectionRun(): {
  problem: Problem | null;
  run: (action: () => Promise<string | null>) => Promise<void>;
  dismiss: () => void;
} {
  const [problem, setProblem] = useState<Problem | null>(null);
  const run = useCallback(async (action: () => Promise<string | null>) => {
    setProblem(null);
    try {
      const sentence = await action();
      if (sentence) store().confirm(sentence);
    } catch (error) {
      setProblem(problemOf(error, t('gallery.actionFailed')));
    }
  }, []);
  return { problem, run, dismiss: useCallback(() => setProblem(null), []) };
}

/** The bar over a selection: how many, and what can be done to them all. */
export function SelectionToolbar({
  selection,
  actions,
  focusTile,
}: {
  selection: GallerySelectionState;
  actions: Pick<ImageActions, 'undo'>;
  /** Gives the focus to a tile (after a delete, the one now where the first deleted was). */
  focusTile: (key: string) => void;
}) {
  const { items, clear } = selection;
  const [confirming, setConfirming] = useState(false);
  const { problem, run, dismiss } = useSelectionRun();
  const barRef = useRef<HTMLDivElement>(null);
  if (items.length === 0) return null;
  const allFavourite = items.every((item) => item.image.favourite);
  const saved = items.filter((item) => item.image.state === 'saved');

  const favourite = () =>
    void run(async () => {
      const result = await store().gallerySetFavourites(items, !allFavourite);
      if (result.done === 0 && result.failed > 0) throw new Error(result.problem);
      return t(
        allFavourite ? 'gallery.announce.unfavouriteMany' : 'gallery.announce.favouriteMany',
        {
          count: result.done,
        },
      );
    });
  const exportAll = () =>
    void run(async () => {
      const result = await store().galleryExport(saved);
      if (result.folder === null) return null;
      return t('gallery.announce.exported', { count: result.copied, folder: result.folder });
    });
  const remove = () =>
    void run(async () => {
      const before = store().galleryItems;
      const first = before.findIndex((item) => itemKey(item) === itemKey(saved[0] ?? item));
      await deleteWithUndo(saved, actions.undo);
      clear();
      const after = store().galleryItems;
      const next = after[Math.min(Math.max(0, first), after.length - 1)];
      if (next) focusTile(itemKey(next));
      return null;
    });

  return (
    <>
      <div
        ref={barRef}
        className="gallery-selection"
        role="toolbar"
        aria-label={t('gallery.selection.label')}
      >
        <span className="gallery-selection__count" aria-live="polite">
          {t('gallery.selection.count', { count: items.length })}
        </span>
        <Button icon="star" size="small" onClick={favourite}>
          {t(allFavourite ? 'gallery.selection.unfavourite' : 'gallery.selection.favourite')}
        </Button>
        <Button icon="folder" size="small" disabled={saved.length === 0} onClick={exportAll}>
          {t('gallery.selection.export')}
        </Button>
        <Button
          icon="trash"
          size="small"
          variant="danger"
          disabled={saved.length === 0}
          onClick={() => setConfirming(true)}
        >
          {t('gallery.selection.delete')}
        </Button>
        <Button size="small" variant="ghost" onClick={clear}>
          {t('gallery.selection.clear')}
        </Button>
        {problem ? (
          <p className="gallery-selection__problem" role="alert">
            {problem.message}{' '}
            <Button size="small" variant="ghost" onClick={dismiss}>
              {t('common.dismiss')}
            </Button>
          </p>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title={t('gallery.confirmDeleteMany.title', { count: saved.length })}
          body={t('gallery.confirmDeleteMany.body')}
          confirmLabel={t('gallery.confirmDelete.confirm')}
          danger
          onConfirm={() => {
            setConfirming(false);
            remove();
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}
