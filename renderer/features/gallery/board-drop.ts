/**
 * Images dragged from the grid onto a board in the sidebar. A tile's drag is the OS's (main
 * starts it with the real file, so it can leave the window): at its start the store keeps what it
 * carries, the selection when the dragged tile is one of several selected, else that tile. While
 * such a drag is under way a board takes it: dropped, the images join the board; with Alt
 * (Option) they move, leaving the board the gallery shows, in one step with one Undo. The drag
 * ends with a drop, or when the pointer moves again with no button held (a drag that left the
 * window tells the page nothing else).
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type DragEvent,
  type HTMLAttributes,
} from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { boardKey } from '../../../shared/domain/triage';
import { isSelected } from '../../lib/selection';
import { useAppStore } from '../../store/app-store';
import { refOf } from '../../store/gallery-delete';
import { itemKey } from '../../store/gallery-list-model';
import type { GallerySelectionState } from './gallery-selection-state';

const store = useAppStore.getState;

/**
 * A tile's drag start: what it carries is kept, then the OS drag starts as before. The same
 * function for the grid's life (every tile holds it): it reads the selection as it is when the
 * drag starts. Made anew with the selection's state, which is new at every change of the images,
 * it drew every tile of the grid again for one star typed on one of them.
 */
export function useDragToBoards(
  selection: Pick<GallerySelectionState, 'selection' | 'count' | 'refs'>,
  startDrag: (item: GalleryItem) => void,
): (item: GalleryItem) => void {
  const now = useRef({ selection, startDrag });
  now.current = { selection, startDrag };
  return useCallback((item) => {
    const { selection: current, startDrag: start } = now.current;
    const many = current.count > 1 && isSelected(current.selection, itemKey(item));
    store().boardsSetDrag(
      many
        ? { refs: () => current.refs(), count: current.count }
        : { refs: () => Promise.resolve([refOf(item)]), count: 1 },
    );
    start(item);
  }, []);
}

/** Drops the dragged images on the board at `path`; with `move`, out of the board shown. */
async function dropOn(path: string, move: boolean): Promise<void> {
  const state = store();
  const drag = state.boardsDrag;
  if (!drag) return;
  state.boardsSetDrag(null);
  const shown = state.galleryFilters.board;
  const from = move && shown !== '' && boardKey(shown) !== boardKey(path) ? shown : undefined;
  const refs = await drag.refs();
  await state.triageApply(refs, { kind: 'board', path, add: true, ...(from ? { from } : {}) });
}

/** The boards as drop targets: each board's handlers, and the board a drag is over. */
export function useBoardDrop(): {
  over: string | null;
  dropProps: (path: string) => HTMLAttributes<HTMLElement>;
} {
  const dragging = useAppStore((s) => s.boardsDrag !== null);
  const [over, setOver] = useState<string | null>(null);
  useEffect(() => {
    if (!dragging) {
      setOver(null);
      return undefined;
    }
    const end = (): void => store().boardsSetDrag(null);
    const moved = (event: MouseEvent): void => {
      if (event.buttons === 0) end();
    };
    window.addEventListener('mousemove', moved);
    window.addEventListener('dragend', end);
    return () => {
      window.removeEventListener('mousemove', moved);
      window.removeEventListener('dragend', end);
    };
  }, [dragging]);

  const dropProps = useCallback((path: string): HTMLAttributes<HTMLElement> => {
    const accept = (event: DragEvent): void => {
      if (!store().boardsDrag) return;
      event.preventDefault();
      // A copy, Alt or not: the OS drag (a file) allows nothing else, and a move is the app's.
      event.dataTransfer.dropEffect = 'copy';
      setOver(path);
    };
    return {
      onDragEnter: accept,
      onDragOver: accept,
      onDragLeave: (event: DragEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(null);
      },
      onDrop: (event: DragEvent) => {
        if (!store().boardsDrag) return;
        event.preventDefault();
        setOver(null);
        void dropOn(path, event.altKey);
      },
    };
  }, []);
  return { over, dropProps };
}
