/**
 * Ctrl+Z (⌘Z on a Mac) anywhere in the window undoes the newest step of the window's one Undo
 * stack (store/undo-slice.ts), whichever screen, view or key made it and wherever the focus is:
 * on a tile, in the viewer, the Triage view, the task list, or nowhere (after a purge emptied the
 * view). Read before any screen sees the key (capture), so no screen acts on it twice. A text
 * field keeps its own Ctrl+Z (the browser's undo of typing), as does an editor with an undo of
 * its own (the mask editor's strokes: `data-own-undo`). Mounted once, with the status area that
 * shows each step's Undo button (shell/status-area.tsx).
 */
import { useEffect } from 'react';
import { isUndoKey } from '../lib/undo-key';
import { useAppStore } from '../store/app-store';

/** Where the browser's own undo of typing works. */
const TEXT_FIELD = [
  'textarea',
  '[contenteditable]:not([contenteditable="false"])',
  ...['text', 'search', 'url', 'email', 'number', 'password', 'tel'].map(
    (type) => `input[type="${type}"]`,
  ),
  'input:not([type])',
].join(', ');

/**
 * The focus is where Ctrl+Z means something else: a text field, an editor's own undo, or a
 * question on screen (a step is not taken back behind a dialog that asks about another).
 */
function keepsOwnUndo(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return target.closest(`${TEXT_FIELD}, [data-own-undo], [role="alertdialog"]`) !== null;
}

/** Listens while `on` (the window's status area, not the copy the viewer shows in its frame). */
export function useUndoKey(on: boolean): void {
  useEffect(() => {
    if (!on) return undefined;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!isUndoKey(event) || keepsOwnUndo(event.target)) return;
      event.preventDefault();
      event.stopPropagation();
      void useAppStore.getState().undoRun();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [on]);
}
