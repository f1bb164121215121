/**
 * Ctrl/Cmd+Z with the focus nowhere (on the page itself, after what had it went away) while
 * `view` is shown undoes that screen's last delete or removal, as it does with the focus in its
 * grid or list. A text field keeps its own Ctrl/Cmd+Z: it has the focus, so this never sees it.
 */
import { useEffect } from 'react';
import { useAppStore } from './app-store';
import type { View } from './ui-slice';
import { isUndoKey } from '../lib/undo-key';

export function useUndoFromPage(view: View, undo: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const active = document.activeElement;
      const nowhere = active === null || active === document.body;
      if (!nowhere || !isUndoKey(event) || useAppStore.getState().view !== view) return;
      event.preventDefault();
      undo();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [view, undo]);
}
