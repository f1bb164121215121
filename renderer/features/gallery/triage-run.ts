/**
 * What a triage key does, the same in the grid, the viewer and the Triage view: a change goes to
 * main for the images named (triage-slice.ts), B adds the images to the target board or takes
 * them out (out when every one of them is in it), T opens the tag editor, Ctrl/Cmd+B the target
 * board's chooser.
 */
import { useCallback, type KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { boardKey } from '../../../shared/domain/triage';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { refOf, type ImageRef } from '../../store/gallery-delete';
import type { GallerySelectionState } from './gallery-selection-state';
import { triageKeyOf, type TriageCommand, type TriageKey } from '../../lib/triage-keys';

const store = useAppStore.getState;

/** The images a key acts on: their refs (main may name a whole selection) and those loaded. */
export interface TriageTargets {
  readonly refs: () => Promise<readonly ImageRef[]>;
  readonly items: readonly GalleryItem[];
}

const inBoard = (item: GalleryItem, path: string): boolean =>
  (item.image.boards ?? []).some((board) => boardKey(board) === boardKey(path));

/** Runs a triage command on the targets. */
async function runTriage(command: TriageCommand, targets: TriageTargets): Promise<void> {
  const state = store();
  switch (command.kind) {
    case 'change':
      await state.triageApply(await targets.refs(), command.change, targets.items);
      return;
    case 'board': {
      const path = state.triageTarget;
      if (path === null) {
        state.confirm(() => t('triage.noTarget'));
        return;
      }
      const add = !targets.items.every((item) => inBoard(item, path));
      await state.triageApply(await targets.refs(), { kind: 'board', path, add });
      return;
    }
    case 'tags':
      state.triageOpenDialog({ kind: 'tags', refs: await targets.refs(), items: targets.items });
      return;
    case 'chooseBoard':
      state.triageOpenDialog({ kind: 'board' });
      return;
    case 'redo':
      await state.triageRedo();
  }
}

/** Whether the focus moves on after the key: Shift, or Auto-advance with a change or B. */
function advancesAfter(key: TriageKey): boolean {
  const moves = key.command.kind === 'change' || key.command.kind === 'board';
  return moves && (key.advance || store().triageAutoAdvance);
}

/** The targets of one image. */
function oneImage(item: GalleryItem): TriageTargets {
  return { refs: () => Promise.resolve([refOf(item)]), items: [item] };
}

/** A triage key on one image shown (the viewer, the Triage view); `next` moves on. */
export function triageIn(item: GalleryItem, next: () => void): (key: TriageKey) => void {
  return (key) => {
    void runTriage(key.command, oneImage(item));
    if (advancesAfter(key)) next();
  };
}

/**
 * The grid's triage: the selection when more than one image is selected, else the tile; answers
 * whether the focus moves on.
 */
export function useGridTriage(
  selection: Pick<GallerySelectionState, 'count' | 'refs' | 'items'>,
): (item: GalleryItem, key: TriageKey) => boolean {
  return useCallback(
    (item, key) => {
      const targets =
        selection.count > 1
          ? { refs: () => selection.refs(), items: selection.items }
          : oneImage(item);
      void runTriage(key.command, targets);
      return advancesAfter(key);
    },
    [selection],
  );
}

/**
 * The gallery's own triage keys, anywhere in it but a text field: Ctrl/Cmd+Shift+T opens the
 * Triage view on the focused image, ? the keyboard-help sheet, Ctrl/Cmd+Shift+Z redoes,
 * Ctrl/Cmd+B chooses the target board. Answers whether the key was one of them.
 */
export function galleryTriageKey(event: KeyboardEvent): boolean {
  const mod = event.ctrlKey || event.metaKey;
  if (mod && event.shiftKey && !event.altKey && event.code === 'KeyT') {
    event.preventDefault();
    store().triageShowView(null);
    return true;
  }
  if (event.key === '?' && !mod && !event.altKey) {
    event.preventDefault();
    store().triageShowHelp(true);
    return true;
  }
  const triage = triageKeyOf(event);
  if (triage?.command.kind !== 'redo' && triage?.command.kind !== 'chooseBoard') return false;
  event.preventDefault();
  void runTriage(triage.command, { refs: () => Promise.resolve([]), items: [] });
  return true;
}
