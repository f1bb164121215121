/**
 * The gallery's multi-selection: Ctrl/Cmd-click or Space toggles an image, Shift extends from the
 * last one (a click, or an arrow, Home, End, Page Up or Page Down from the focused tile), Ctrl/Cmd+A (or "Select all") selects every image the filters match, loaded or not
 * ("All 300 images"), Escape clears; while something is selected a plain click selects too, as
 * photo libraries do. A toolbar with the count acts on the selection: pick, reject, export to a
 * folder, move to the trash (one question for all, then Undo). For the whole set, main names the
 * images from the filters when an action needs them. Ctrl/Cmd+Z is the window's
 * (shell/undo-key.ts).
 */
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import type { ImageState } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/dialog';
import { t } from '../../i18n';
import { problemOf, type Problem } from '../../lib/api';
import {
  clickSelection,
  emptySelection,
  extendTo,
  keySelection,
  retainSelection,
  selectAll as selectWhole,
  selectedInOrder,
  selectionSize,
  type ClickModifiers,
  type Selection,
} from '../../lib/selection';
import { useAppStore } from '../../store/app-store';
import { keyIndexOf, itemsAt } from '../../store/gallery-keys';
import { itemKey, type GalleryFilters } from '../../store/gallery-list-model';
import type { ImageRef } from '../../store/gallery-trash-slice';
import type { Words } from '../../store/status-slice';
import { galleryTriageKey } from './triage-run';
import type { DeleteQuestion } from './use-delete-question';
import { deleteWithUndo } from './use-image-actions';
import { SelectionFlags } from './selection-flags';
import { WriteMetadataButton } from './write-metadata';
import type { GallerySelectionState } from './gallery-selection-state';
import './gallery-selection.css';

const store = useAppStore.getState;

/** Text fields keep their own Ctrl+A, Ctrl+Z and Escape. */
function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      target.matches('textarea, select, input:not([type="checkbox"]):not([type="radio"])'))
  );
}

/** The images of a whole-set selection: main's answer for the filters, less those taken out. */
async function wholeRefs(
  filters: GalleryFilters,
  except: ReadonlySet<string>,
  states?: readonly ImageState[],
): Promise<ImageRef[]> {
  const images = await store().galleryMatching(filters, states);
  return images.filter((ref) => !except.has(itemKey(ref)));
}

/** The selected images (in `states` only, when given), loaded or not: main names the whole set. */
function useSelectionRefs(
  selection: Selection<string>,
  filters: GalleryFilters,
  selectedItems: readonly GalleryItem[],
): GallerySelectionState['refs'] {
  return useCallback(
    async (states?: readonly ImageState[]): Promise<ImageRef[]> => {
      if (selection.whole) return wholeRefs(filters, selection.whole.except, states);
      const kept = states
        ? selectedItems.filter((item) => states.includes(item.image.state))
        : selectedItems;
      return kept.map(({ localId, index }) => ({ localId, index }));
    },
    [selection, filters, selectedItems],
  );
}

/**
 * Shift+arrow: the range to the place the focus moves to. The images loaded from the top are the
 * list's first places, so a place is a key; past them, the last place is the list's end (loaded
 * or not: the whole set from the anchor), any other the last image loaded.
 */
function useExtend(
  order: readonly string[],
  total: number | null,
  setSelection: (update: (current: Selection<string>) => Selection<string>) => void,
): GallerySelectionState['onExtend'] {
  return useCallback(
    (from, toIndex, add) => {
      const last = Math.max(total ?? 0, order.length) - 1;
      const to = toIndex < order.length ? order[toIndex] : toIndex >= last ? null : order.at(-1);
      setSelection((current) => extendTo(current, order, { from, to: to ?? null }, add));
    },
    [order, total, setSelection],
  );
}

/** The selection over the gallery (the store's); a new filter starts a new one. */
export function useGallerySelection(
  items: readonly GalleryItem[],
  filters: GalleryFilters,
  total: number | null,
): GallerySelectionState {
  const selection = useAppStore((state) => state.gallerySelection);
  const setSelection = store().gallerySetSelection;
  // Shared by every list that holds the same images in the same places (store/gallery-keys.ts).
  const { order, placeOf } = keyIndexOf(items);
  useEffect(() => {
    setSelection((current) => retainSelection(current, (key) => placeOf.has(key)));
  }, [placeOf]);

  const onSelect = useCallback(
    (key: string, modifiers: ClickModifiers) =>
      setSelection((current) => clickSelection(current, order, key, modifiers)),
    [order, setSelection],
  );
  const onExtend = useExtend(order, total, setSelection);
  const clear = useCallback(() => setSelection(emptySelection()), [setSelection]);
  const selectAll = useCallback(
    () => setSelection((current) => selectWhole(current, order)),
    [order, setSelection],
  );
  const onKeyDown = (event: KeyboardEvent): void => {
    if (isTextField(event.target)) return;
    if (galleryTriageKey(event)) return;
    // Selection keys only on the grid itself (a button keeps Escape, Ctrl+A is the grid's).
    if (!(event.target as HTMLElement).closest('[role="grid"]')) return;
    const next = keySelection(selection, order, event);
    if (next === selection) return;
    event.preventDefault();
    event.stopPropagation();
    setSelection(next);
  };
  const selectedItems = useMemo(
    () => itemsAt(items, selectedInOrder(selection, order, placeOf)),
    [selection, order, placeOf, items],
  );
  const refs = useSelectionRefs(selection, filters, selectedItems);
  return {
    selection,
    count: selectionSize(selection, total ?? items.length),
    whole: selection.whole !== undefined,
    items: selectedItems,
    onSelect,
    onExtend,
    clear,
    selectAll,
    refs,
    onKeyDown,
  };
}

/** Runs a selection action: its sentence in the status area, its failure shown in the bar. */
function useSelectionRun(): {
  problem: Problem | null;
  run: (action: () => Promise<Words | null>) => Promise<void>;
  dismiss: () => void;
} {
  const [problem, setProblem] = useState<Problem | null>(null);
  const run = useCallback(async (action: () => Promise<Words | null>) => {
    setProblem(null);
    try {
      const sentence = await action();
      if (sentence) store().confirm(sentence);
    } catch (error) {
      setProblem(problemOf(error, () => t('gallery.actionFailed')));
    }
  }, []);
  return { problem, run, dismiss: useCallback(() => setProblem(null), []) };
}

/** An export's result line: how many images were copied where, and how many could not be. */
function exportedText(copied: number, failed: number, folder: string): string {
  const done = t('gallery.announce.exported', { count: copied, folder });
  return failed > 0 ? `${done} ${t('gallery.announce.exportFailed', { count: failed })}` : done;
}

/** Whether the selection is worth a "Select all" (more images match than are selected). */
function offersAll(selection: GallerySelectionState, total: number | null): boolean {
  return !selection.whole && (total ?? 0) > selection.count;
}

interface SelectionActionsOptions {
  readonly selection: GallerySelectionState;
  /** Gives the focus to the image that stays next to those going, or to the grid. */
  readonly focusAfterDelete: (gone: ReadonlySet<string>) => void;
  readonly run: (action: () => Promise<Words | null>) => Promise<void>;
  /** Asks before deleting these images. */
  readonly confirm: (refs: ImageRef[]) => void;
}

/** What the selection bar's buttons do to every selected image. */
function useSelectionActions(options: SelectionActionsOptions) {
  const { selection, run } = options;
  const exportAll = () =>
    void run(async () => {
      const result = await store().galleryExport(await selection.refs(['saved']));
      const { folder, copied, failed } = result;
      if (folder === null) return null;
      return () => exportedText(copied, failed, folder);
    });
  const askDelete = () =>
    void run(async () => {
      // The exact images first: the question names how many will go.
      options.confirm(await selection.refs(['saved']));
      return null;
    });
  const remove = (refs: readonly ImageRef[]) =>
    void run(async () => {
      // At once, not when it ends: the bar goes with the selection, the grid keeps the focus
      // (Ctrl/Cmd+Z there stops the delete while it runs).
      options.focusAfterDelete(new Set(refs.map(itemKey)));
      selection.clear();
      await deleteWithUndo(refs);
      return null;
    });
  return { exportAll, askDelete, remove };
}

/** Asks before deleting `count` selected images. */
function ConfirmDeleteMany(props: { count: number; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      title={t('gallery.confirmDeleteMany.title', { count: props.count })}
      body={t('gallery.confirmDeleteMany.body')}
      confirmLabel={t('gallery.confirmDelete.confirm')}
      danger
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    />
  );
}

/** A selection action's failure, in the bar until dismissed. */
function SelectionProblem({ problem, onDismiss }: { problem: Problem; onDismiss: () => void }) {
  return (
    <p className="gallery-selection__problem" role="alert">
      {problem.message}{' '}
      <Button size="small" variant="ghost" onClick={onDismiss}>
        {t('common.dismiss')}
      </Button>
    </p>
  );
}

interface SelectionToolbarProps {
  readonly selection: GallerySelectionState;
  /** The question before the selection goes to the trash (Delete on a tile asks it too). */
  readonly question: Pick<DeleteQuestion, 'many' | 'setMany'>;
  /** Gives the focus to the grid as a delete starts (the image next to those going). */
  readonly focusAfterDelete: (gone: ReadonlySet<string>) => void;
  /** How many images the filters match, when known. */
  readonly total: number | null;
}

/** The bar over a selection: how many, and what can be done to them all. */
export function SelectionToolbar(props: SelectionToolbarProps) {
  const { selection, focusAfterDelete, total } = props;
  const { items, clear, count, whole } = selection;
  const { many: confirming, setMany: setConfirming } = props.question;
  const { problem, run, dismiss } = useSelectionRun();
  if (count === 0 && !whole) return null;
  const saved = whole || items.some((item) => item.image.state === 'saved');

  const { exportAll, askDelete, remove } = useSelectionActions({
    selection,
    focusAfterDelete,
    run,
    confirm: setConfirming,
  });

  return (
    <>
      <div className="gallery-selection" role="toolbar" aria-label={t('gallery.selection.label')}>
        {/* A whole set's count is main's for its filters: empty until it is in (never the
            images loaded, which may still be an earlier filter's). */}
        <span className="gallery-selection__count" aria-live="polite">
          {whole && total === null
            ? ''
            : t(whole ? 'gallery.selection.countAll' : 'gallery.selection.count', { count })}
        </span>
        {offersAll(selection, total) ? (
          <Button size="small" variant="ghost" onClick={selection.selectAll}>
            {t('gallery.selection.selectAll')}
          </Button>
        ) : null}
        <SelectionFlags selection={selection} run={run} />
        <Button icon="folder" size="small" disabled={!saved} onClick={exportAll}>
          {t('gallery.selection.export')}
        </Button>
        <WriteMetadataButton selection={selection} run={run} disabled={!saved} />
        <Button icon="trash" size="small" variant="danger" disabled={!saved} onClick={askDelete}>
          {t('gallery.selection.delete')}
        </Button>
        <Button size="small" variant="ghost" onClick={clear}>
          {t('gallery.selection.clear')}
        </Button>
        {problem ? <SelectionProblem problem={problem} onDismiss={dismiss} /> : null}
      </div>
      {confirming ? (
        <ConfirmDeleteMany
          count={confirming.length}
          onConfirm={() => {
            setConfirming(null);
            remove(confirming);
          }}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </>
  );
}
