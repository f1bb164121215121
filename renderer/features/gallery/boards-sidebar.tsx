/**
 * The gallery's sidebar: "All images", "Unfiled" and "Rejected", the boards as a tree (each with
 * its images, the target board marked), then the smart boards. Choosing an entry sets the
 * gallery's filter to it (and the entry is shown as current); each entry's actions (a right-click,
 * Shift+F10, the Menu key, or its "…") create, rename, move and delete boards, set the target
 * board, purge rejects, and rename or delete a smart board. A board takes the images dragged
 * onto it from the grid. The foot says the target board, and the sidebar folds away to a button
 * (or Ctrl/Cmd+\; by itself in a narrow window: sidebar-fold.tsx).
 */
import { useSmartBoardMenu } from './smart-board-menu';
import { SaveSmartBoard, SmartRulesList } from './smart-boards-ui';
import { useId, useMemo, useRef, type ReactNode } from 'react';
import { boardKey, foldName } from '../../../shared/domain/triage';
import type { SmartBoardOutput } from '../../../shared/ipc/triage-contract';
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { useRovingFocus } from '../../lib/roving-focus';
import { useAppStore } from '../../store/app-store';
import type { GalleryFilters } from '../../store/gallery-list-model';
import { useBoardDrop } from './board-drop';
import { boardNodes, visibleNodes, type BoardNode } from './board-tree';
import { SidebarDialogs, useSidebarActions, type SidebarActions } from './sidebar-actions';
import { FoldButton, useSidebarFold, type SidebarFold } from './sidebar-fold';
import { SidebarTree, type TreeEntry } from './sidebar-tree';
import { useTriageLibrary } from './triage-dialogs';
import './boards-sidebar.css';

const store = useAppStore.getState;

/** The library's own entries: every image, those in no board, the rejects. */
const VIEWS = ['all', 'unfiled', 'rejected'] as const;
type View = (typeof VIEWS)[number];

const VIEW_LABEL = {
  all: 'triage.sidebar.all',
  unfiled: 'triage.sidebar.unfiled',
  rejected: 'triage.sidebar.rejected',
} as const;

/** The entry the filters show: `board:` a board's key, `smart:` a smart board's, or a view. */
function currentOf(filters: GalleryFilters): string {
  if (filters.smart !== '') return `smart:${foldName(filters.smart)}`;
  if (filters.board !== '') return `board:${boardKey(filters.board)}`;
  if (filters.unfiled) return 'unfiled';
  return filters.rejected ? 'rejected' : 'all';
}

/** The filters that show an entry (and no other entry's). */
function filtersFor(view: View | { board: string } | { smart: string }): Partial<GalleryFilters> {
  const board = typeof view === 'object' && 'board' in view ? view.board : '';
  const smart = typeof view === 'object' && 'smart' in view ? view.smart : '';
  return { board, smart, unfiled: view === 'unfiled', rejected: view === 'rejected' };
}

function BoardsPart(props: {
  nodes: readonly BoardNode[];
  current: string;
  actions: SidebarActions;
  describedBy: string;
}) {
  const { actions } = props;
  const target = useAppStore((s) => s.triageTarget);
  // The store's (a language switch draws the sidebar anew and keeps the tree as folded).
  const folded = useAppStore((s) => s.boardsFolded);
  const { over, dropProps } = useBoardDrop();
  const byKey = useMemo(() => new Map(props.nodes.map((n) => [n.key, n])), [props.nodes]);
  const entries = visibleNodes(props.nodes, folded).map((node): TreeEntry => ({
    id: node.key,
    label: node.name,
    level: node.depth,
    ...(node.hasChildren ? { expanded: !folded.has(node.key) } : {}),
    count: node.images,
    target: target !== null && boardKey(target) === node.key,
    current: props.current === `board:${node.key}`,
    dropping: over === node.path,
  }));
  const pathOf = (id: string): string => byKey.get(id)?.path ?? id;
  return (
    <SidebarPart
      title={t('triage.boards.label')}
      none={t('triage.sidebar.noBoards')}
      entries={entries}
    >
      {(tree) => (
        <SidebarTree
          {...tree}
          describedBy={props.describedBy}
          onChoose={(id) => actions.show(filtersFor({ board: pathOf(id) }))}
          onFold={(id, open) => store().boardsSetFolded(id, !open)}
          onMenu={(request) => actions.menu({ ...request, board: pathOf(request.id) })}
          dropProps={(id) => dropProps(pathOf(id))}
        />
      )}
    </SidebarPart>
  );
}

/** The smart boards main lists: choosing one shows the images its rules match. */
function SmartPart(props: {
  boards: readonly SmartBoardOutput[];
  current: string;
  actions: SidebarActions;
  describedBy: string;
}) {
  const byId = new Map(props.boards.map((board) => [board.id, board.name]));
  const menu = useSmartBoardMenu((id) => byId.get(id));
  const shown = props.boards.find((board) => props.current === `smart:${foldName(board.name)}`);
  const entries = props.boards.map((board): TreeEntry => ({
    id: board.id,
    label: board.name,
    level: 1,
    current: props.current === `smart:${foldName(board.name)}`,
  }));
  return (
    <SidebarPart
      title={t('triage.sidebar.smart')}
      beside={<SaveSmartBoard />}
      none={t('triage.sidebar.noSmart')}
      entries={entries}
      after={
        <>
          {menu.shown}
          {shown ? <SmartRulesList board={shown} /> : null}
        </>
      }
    >
      {(tree) => (
        <SidebarTree
          {...tree}
          describedBy={props.describedBy}
          onChoose={(id) => props.actions.show(filtersFor({ smart: byId.get(id) ?? '' }))}
          onMenu={menu.onMenu}
        />
      )}
    </SidebarPart>
  );
}

/**
 * A part of the sidebar: its heading (and what stands beside it), then its tree, labelled as the
 * heading reads, or the sentence saying it has no entry; `after` stands below either.
 */
function SidebarPart(props: {
  readonly title: string;
  readonly beside?: ReactNode;
  readonly none: string;
  readonly entries: readonly TreeEntry[];
  readonly children: (tree: { label: string; entries: readonly TreeEntry[] }) => ReactNode;
  readonly after?: ReactNode;
}) {
  return (
    <div className="boards-sidebar__part">
      <div className="boards-sidebar__heading">
        <span>{props.title}</span>
        {props.beside}
      </div>
      {props.entries.length === 0 ? (
        <p className="boards-sidebar__empty">{props.none}</p>
      ) : (
        props.children({ label: props.title, entries: props.entries })
      )}
      {props.after}
    </div>
  );
}

/** The foot: which board B adds to (the toolbar's "Target board…" chooses it). */
function TargetLine() {
  const target = useAppStore((s) => s.triageTarget);
  return (
    <p className="boards-sidebar__target">
      {target === null ? t('triage.targetNone') : t('triage.target', { board: target })}
    </p>
  );
}

/** One Tab stop (the arrows move inside): fold, a new board, the target board's chooser. */
function SidebarToolbar({ actions, fold }: { actions: SidebarActions; fold: SidebarFold }) {
  const bar = useRef<HTMLDivElement>(null);
  const onKeyDown = useRovingFocus(bar);
  return (
    <div
      ref={bar}
      role="toolbar"
      aria-label={t('triage.sidebar.tools')}
      className="boards-sidebar__tools"
      onKeyDown={onKeyDown}
    >
      <FoldButton fold={fold} />
      <Button size="small" variant="ghost" onClick={() => actions.create(null)}>
        {t('triage.boards.new')}
      </Button>
      <Button
        size="small"
        variant="ghost"
        aria-keyshortcuts="Control+B"
        onClick={() => store().triageOpenDialog({ kind: 'board' })}
      >
        {t('triage.sidebar.choose')}
      </Button>
    </div>
  );
}

function SidebarBody(props: {
  fold: SidebarFold;
  filters: GalleryFilters;
  onFiltersChange: (patch: Partial<GalleryFilters>) => void;
}) {
  const { filters } = props;
  const helpId = useId();
  const library = useTriageLibrary();
  const nodes = useMemo(() => boardNodes(library?.boards ?? []), [library]);
  const actions = useSidebarActions(filters, props.onFiltersChange);
  const current = currentOf(filters);
  const views = VIEWS.map((view): TreeEntry => ({
    id: view,
    label: t(VIEW_LABEL[view]),
    level: 1,
    current: current === view,
  }));
  return (
    <div className="boards-sidebar__body">
      <SidebarToolbar actions={actions} fold={props.fold} />
      <p id={helpId} className="visually-hidden">
        {t('triage.sidebar.help')}
      </p>
      <SidebarTree
        label={t('triage.sidebar.views')}
        entries={views}
        describedBy={helpId}
        onChoose={(view) => actions.show(filtersFor(view as View))}
        onMenu={(request) => actions.menu({ ...request, board: null })}
      />
      <BoardsPart nodes={nodes} current={current} actions={actions} describedBy={helpId} />
      <SmartPart
        boards={library?.smart ?? []}
        current={current}
        actions={actions}
        describedBy={helpId}
      />
      <TargetLine />
      <SidebarDialogs actions={actions} nodes={nodes} />
    </div>
  );
}

/** The sidebar beside the grid; `onFiltersChange` sets the gallery's filters (and says so). */
export function BoardsSidebar(props: {
  filters: GalleryFilters;
  onFiltersChange: (patch: Partial<GalleryFilters>) => void;
}) {
  const fold = useSidebarFold();
  const { open } = fold;
  const state = open ? (fold.narrow ? ' boards-sidebar--over' : '') : ' boards-sidebar--closed';
  return (
    <nav className={`boards-sidebar${state}`} aria-label={t('triage.sidebar.label')}>
      {open ? (
        <SidebarBody fold={fold} filters={props.filters} onFiltersChange={props.onFiltersChange} />
      ) : (
        <FoldButton fold={fold} />
      )}
    </nav>
  );
}
