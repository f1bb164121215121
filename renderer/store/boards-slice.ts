/**
 * The boards sidebar's part of the window: the boards' tree changed through main (create, rename,
 * move, delete; a board's new path follows into the gallery's filter and the target board, a
 * deleted one leaves both), "Write metadata to files", the images a drag from the grid carries
 * (a board in the sidebar takes them on drop), and whether the sidebar is open: as the user left
 * it in a wide window (kept in localStorage for the next start) and, apart, in a narrow one,
 * where it starts folded and the remembered choice is left as it was. Main refuses a bad name or
 * a move into a board's own descendant with its sentence: the action throws it, for the dialog
 * to show beside its field.
 */
import type { StateCreator } from 'zustand';
import { z } from 'zod';
import { boardKey, movedBoardPath } from '../../shared/domain/triage';
import type { RequestOutput } from '../../shared/ipc/contract';
import { t } from '../i18n';
import { call } from '../lib/api';
import { toggledIds } from '../lib/selection';
import { readStored, writeStored } from '../lib/stored-value';
import type { AppState } from './app-state';
import type { ImageRef } from './gallery-delete';

/** What a drag that a tile of this window started carries. */
export interface BoardsDrag {
  /** The dragged images (a whole-set selection asks main). */
  readonly refs: () => Promise<readonly ImageRef[]>;
  readonly count: number;
}

export interface BoardsSlice {
  /** A drag this window started, while it may be under way; null otherwise. */
  boardsDrag: BoardsDrag | null;
  boardsSetDrag(drag: BoardsDrag | null): void;
  /** The sidebar's fold as the user left it in a window wide enough for it (kept for restarts). */
  boardsSidebarOpen: boolean;
  boardsSetSidebarOpen(open: boolean): void;
  /** Opened by the user in a narrow window, where it folds by itself (for this session only). */
  boardsSidebarNarrowOpen: boolean;
  /** The fold button or Ctrl/Cmd+\: in a narrow window only that window's state changes. */
  boardsToggleSidebar(narrow: boolean): void;
  /**
   * The boards whose insides the sidebar's tree hides, by board key: the store's, so a new
   * language (the window drawn anew, app.tsx) shows the tree as the user folded it.
   */
  boardsFolded: ReadonlySet<string>;
  boardsSetFolded(key: string, folded: boolean): void;
  /** Creates the board at `path` (its parents too); answers its path as stored. */
  boardsCreate(path: string): Promise<string>;
  /** Renames the board; answers its new path. */
  boardsRename(path: string, name: string): Promise<string>;
  /** Moves the board under `parent` (null: to the top); answers its new path. */
  boardsMove(path: string, parent: string | null): Promise<string>;
  /** Deletes the board and those inside it; their images stay in the library. */
  boardsDelete(path: string): Promise<void>;
  boardsWriteMetadata(refs: readonly ImageRef[]): Promise<RequestOutput<'triage:writeMetadata'>>;
}

const STORED_KEY = 'pictor.boards';
const storedSchema = z.object({ open: z.boolean().catch(true) });

/** Whether `path` is the board `board` or inside it. */
function within(path: string, board: string): boolean {
  const key = boardKey(path);
  const top = boardKey(board);
  return key === top || key.startsWith(`${top}/`);
}

type Creator = StateCreator<AppState, [], [], BoardsSlice>;

/** The tree's folded boards, none at first. */
function foldActions(
  set: Parameters<Creator>[0],
  get: () => AppState,
): Pick<BoardsSlice, 'boardsFolded' | 'boardsSetFolded'> {
  return {
    boardsFolded: new Set(),
    boardsSetFolded: (key, folded) => {
      const known = get().boardsFolded;
      if (known.has(key) !== folded) set({ boardsFolded: toggledIds(known, [key], folded) });
    },
  };
}

export const createBoardsSlice: Creator = (set, get) => {
  const stored = readStored(STORED_KEY, storedSchema, { open: true });
  /** The filter's board and the target follow a board that moved (or was renamed). */
  const follow = async ({ from, to }: { from: string; to: string }): Promise<string> => {
    const state = get();
    const moved = (path: string) => movedBoardPath(path, from, to);
    const shown = state.galleryFilters.board;
    if (shown !== '' && within(shown, from)) state.gallerySetFilters({ board: moved(shown) });
    const target = state.triageTarget;
    if (target !== null && within(target, from)) state.triageSetTarget(moved(target));
    await state.triageLoadLibrary();
    return to;
  };
  return {
    boardsDrag: null,
    boardsSetDrag: (drag) => set({ boardsDrag: drag }),
    boardsSidebarOpen: stored.open,
    boardsSetSidebarOpen: (open) => {
      set({ boardsSidebarOpen: open, boardsSidebarNarrowOpen: false });
      writeStored(STORED_KEY, { open });
    },
    boardsSidebarNarrowOpen: false,
    boardsToggleSidebar: (narrow) => {
      const state = get();
      if (narrow) set({ boardsSidebarNarrowOpen: !state.boardsSidebarNarrowOpen });
      else state.boardsSetSidebarOpen(!state.boardsSidebarOpen);
    },
    ...foldActions(set, get),
    boardsCreate: async (path) => {
      const created = await call('boards:create', { path });
      await get().triageLoadLibrary();
      get().confirm(() => t('triage.boards.created', { board: created.path }));
      return created.path;
    },
    boardsRename: async (path, name) => {
      const to = await follow(await call('boards:rename', { path, name }));
      get().confirm(() => t('triage.boards.renamed', { board: to }));
      return to;
    },
    boardsMove: async (path, parent) => {
      const to = await follow(await call('boards:move', { path, parent }));
      get().confirm(() => t('triage.boards.moved', { board: to }));
      return to;
    },
    boardsDelete: async (path) => {
      await call('boards:delete', { path });
      const state = get();
      const shown = state.galleryFilters.board;
      if (shown !== '' && within(shown, path)) state.gallerySetFilters({ board: '' });
      if (state.triageTarget !== null && within(state.triageTarget, path)) {
        state.triageSetTarget(null);
      }
      await state.triageLoadLibrary();
      state.confirm(() => t('triage.boards.deleted', { board: path }));
    },
    boardsWriteMetadata: (refs) => call('triage:writeMetadata', { images: [...refs] }),
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends BoardsSlice {}
}
