/**
 * What the boards sidebar's entries do: show their images, and their actions menu (new board,
 * rename, move, delete, target board, purge rejects) with the dialogs it opens. After a rename or a
 * move the board's entry (under its new path) has the focus, after a delete the entry shown.
 */
import { useCallback, useEffect, useState } from 'react';
import { boardKey } from '../../../shared/domain/triage';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { GalleryFilters } from '../../store/gallery-list-model';
import type { BoardDialog } from '../../store/form-drafts';
import { useFormDraft } from '../../store/use-form-draft';
import { BoardNameDialog, DeleteBoardDialog, MoveBoardDialog } from './board-dialogs';
import type { BoardNode } from './board-tree';
import { usePurgeRejects, type PurgeRejects } from './use-purge-rejects';
import { SidebarMenu, type SidebarMenuEntry } from './sidebar-menu';
import { entryElement, type TreeMenuRequest } from './sidebar-tree';

const store = useAppStore.getState;

/** A menu asked for: on a board (its path), or on one of the library's views (null). */
type MenuAt = TreeMenuRequest & { readonly board: string | null };

type SidebarDialog = BoardDialog;

export interface SidebarActions {
  /** Shows the images of an entry (its filters), unless shown already. */
  readonly show: (patch: Partial<GalleryFilters>) => void;
  readonly create: (parent: string | null) => void;
  readonly menu: (request: MenuAt) => void;
  readonly menuAt: MenuAt | null;
  readonly closeMenu: () => void;
  readonly dialog: SidebarDialog | null;
  readonly setDialog: (dialog: SidebarDialog | null) => void;
  readonly purge: PurgeRejects;
  /** A board's entry to give the focus to ('current': the entry shown). */
  readonly focusTo: string | null;
  readonly setFocusTo: (key: string | null) => void;
}

export function useSidebarActions(
  filters: GalleryFilters,
  onFiltersChange: (patch: Partial<GalleryFilters>) => void,
): SidebarActions {
  const [menuAt, setMenuAt] = useState<MenuAt | null>(null);
  // In the store (form-drafts.ts), as the name typed in it: a new language keeps the dialog open.
  const [dialog, keepDialog] = useFormDraft('boards.dialog', null);
  const drop = useAppStore((state) => state.formDraftDrop);
  const setDialog = useCallback(
    (next: SidebarDialog | null) => {
      drop('boards.name');
      drop('boards.parent');
      drop('boards.picker');
      keepDialog(next);
    },
    [drop, keepDialog],
  );
  const [focusTo, setFocusTo] = useState<string | null>(null);
  const purge = usePurgeRejects();
  const show = (patch: Partial<GalleryFilters>): void => {
    const same = (Object.keys(patch) as (keyof GalleryFilters)[]).every(
      (key) => filters[key] === patch[key],
    );
    if (!same) onFiltersChange(patch);
  };
  return {
    show,
    create: (parent) => setDialog({ kind: 'create', parent }),
    menu: setMenuAt,
    menuAt,
    closeMenu: useCallback(() => setMenuAt(null), []),
    dialog,
    setDialog,
    purge,
    focusTo,
    setFocusTo,
  };
}

/** The menu of a board. */
function boardEntries(board: string, actions: SidebarActions): SidebarMenuEntry[] {
  const target = store().triageTarget;
  const isTarget = target !== null && boardKey(target) === boardKey(board);
  const open = (kind: 'rename' | 'move' | 'delete') => () => actions.setDialog({ kind, board });
  return [
    { id: 'new', label: t('triage.boards.newInside'), run: () => actions.create(board) },
    { id: 'rename', label: t('triage.boards.rename'), run: open('rename') },
    { id: 'move', label: t('triage.boards.move'), run: open('move') },
    {
      id: 'target',
      label: t(isTarget ? 'triage.boards.clearTarget' : 'triage.boards.setTarget'),
      run: () => {
        store().triageSetTarget(isTarget ? null : board);
        store().confirm(() => (isTarget ? t('triage.targetNone') : t('triage.target', { board })));
      },
    },
    { id: 'purge', label: t('triage.purge.menu'), run: () => void actions.purge.ask({ board }) },
    { id: 'delete', label: t('triage.boards.delete'), run: open('delete') },
  ];
}

/** The menu of a library view: a new board at the top; the rejects of the whole library. */
function viewEntries(view: string, actions: SidebarActions): SidebarMenuEntry[] {
  const create = { id: 'new', label: t('triage.boards.new'), run: () => actions.create(null) };
  const purge = {
    id: 'purge',
    label: t('triage.purge.menu'),
    run: () => void actions.purge.ask('library'),
  };
  return view === 'unfiled' ? [create] : [create, purge];
}

/** Gives the focus to the entry asked for, once it is drawn. */
function useFocusEntry(actions: SidebarActions, nodes: readonly BoardNode[]): void {
  const { focusTo, setFocusTo } = actions;
  useEffect(() => {
    if (focusTo === null) return;
    const sidebar = document.querySelector('.boards-sidebar');
    const entry =
      focusTo === 'current'
        ? (sidebar?.querySelector<HTMLElement>('[role="treeitem"][aria-selected="true"]') ?? null)
        : entryElement(sidebar, focusTo);
    if (!entry) return;
    entry.focus();
    setFocusTo(null);
  }, [focusTo, setFocusTo, nodes]);
}

/** The open menu and dialog of the sidebar. */
export function SidebarDialogs({
  actions,
  nodes,
}: {
  actions: SidebarActions;
  nodes: readonly BoardNode[];
}) {
  const { menuAt, dialog, setDialog, purge } = actions;
  useFocusEntry(actions, nodes);
  const close = () => setDialog(null);
  const done = (path: string) => {
    setDialog(null);
    actions.setFocusTo(boardKey(path));
  };
  const paths = nodes.map((node) => node.path);
  return (
    <>
      {menuAt ? (
        <SidebarMenu
          label={t('triage.sidebar.menu', { name: menuAt.label })}
          at={menuAt}
          entries={
            menuAt.board === null
              ? viewEntries(menuAt.id, actions)
              : boardEntries(menuAt.board, actions)
          }
          onClose={actions.closeMenu}
        />
      ) : null}
      {dialog?.kind === 'create' ? (
        <BoardNameDialog
          parent={dialog.parent ?? ''}
          boards={paths}
          onClose={close}
          onDone={close}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <BoardNameDialog board={dialog.board} boards={paths} onClose={close} onDone={done} />
      ) : null}
      {dialog?.kind === 'move' ? (
        <MoveBoardDialog board={dialog.board} boards={paths} onClose={close} onDone={done} />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteBoardDialog
          board={dialog.board}
          onClose={close}
          onDone={() => {
            setDialog(null);
            actions.setFocusTo('current');
          }}
        />
      ) : null}
      {purge.dialog}
    </>
  );
}
