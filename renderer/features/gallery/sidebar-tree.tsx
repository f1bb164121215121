/**
 * One tree of the boards sidebar (the ARIA tree pattern, one Tab stop): Up and Down move, Home and
 * End go to the ends, Right unfolds a board or goes into it and Left folds it or goes to its
 * parent (both mirrored right to left), Enter or Space shows the entry's images, Shift+F10 or the
 * Menu key opens its actions (as a right-click does). The entry shown is `aria-selected`.
 */
import {
  useRef,
  useState,
  type CSSProperties,
  type HTMLAttributes,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { t } from '../../i18n';
import { logicalArrow } from '../../lib/direction';
import { menuKey } from './gallery-context-menu';

export interface TreeEntry {
  readonly id: string;
  readonly label: string;
  /** 1 at the top. */
  readonly level: number;
  /** Whether its entries inside show; undefined when it has none. */
  readonly expanded?: boolean;
  /** Images in it, when known. */
  readonly count?: number;
  /** The target board (B adds to it). */
  readonly target?: boolean;
  /** The entry whose images the gallery shows. */
  readonly current: boolean;
  /** Images dragged from the grid are over it. */
  readonly dropping?: boolean;
}

/** Where a menu was asked for: the entry's element, and a point (viewport pixels). */
export interface TreeMenuRequest {
  readonly id: string;
  /** The entry's label (the menu is named after it). */
  readonly label: string;
  readonly from: HTMLElement;
  readonly x: number;
  readonly y: number;
}

export interface SidebarTreeProps {
  readonly label: string;
  readonly entries: readonly TreeEntry[];
  readonly describedBy?: string;
  readonly onChoose: (id: string) => void;
  readonly onFold?: (id: string, expanded: boolean) => void;
  readonly onMenu: (request: TreeMenuRequest) => void;
  /** A board's handlers as a drop target (board-drop.ts). */
  readonly dropProps?: (id: string) => HTMLAttributes<HTMLElement>;
}

/** The entry the arrow key goes to, by its index; null when the key is not the tree's. */
function nextIndex(key: string, at: number, entries: readonly TreeEntry[]): number | null {
  switch (key) {
    case 'ArrowDown':
      return Math.min(at + 1, entries.length - 1);
    case 'ArrowUp':
      return Math.max(at - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return entries.length - 1;
    default:
      return null;
  }
}

/** The index of the entry's parent (the nearest entry above at a lower level), or null. */
function parentIndex(at: number, entries: readonly TreeEntry[]): number | null {
  const level = entries[at]?.level ?? 1;
  for (let n = at - 1; n >= 0; n -= 1) if ((entries[n]?.level ?? 1) < level) return n;
  return null;
}

/** A menu asked for from the keyboard opens over the entry. */
function menuAt(entry: TreeEntry, element: HTMLElement): TreeMenuRequest {
  const rect = element.getBoundingClientRect();
  return { id: entry.id, label: entry.label, from: element, x: rect.left + 16, y: rect.bottom };
}

function useTreeKeys(props: SidebarTreeProps, focusAt: (index: number) => void) {
  const { entries, onChoose, onFold, onMenu } = props;
  return (event: KeyboardEvent<HTMLElement>, at: number): void => {
    const entry = entries[at];
    if (!entry) return;
    const key = logicalArrow(event.key);
    const move = nextIndex(key, at, entries);
    let handled = true;
    if (move !== null) focusAt(move);
    else if (key === 'Enter' || key === ' ') onChoose(entry.id);
    else if (menuKey(event)) onMenu(menuAt(entry, event.currentTarget));
    else if (key === 'ArrowRight' && entry.expanded === false) onFold?.(entry.id, true);
    else if (key === 'ArrowRight' && entry.expanded === true) focusAt(at + 1);
    else if (key === 'ArrowLeft' && entry.expanded === true) onFold?.(entry.id, false);
    else if (key === 'ArrowLeft') focusAt(parentIndex(at, entries) ?? at);
    else handled = false;
    if (!handled) return;
    event.preventDefault();
    event.stopPropagation();
  };
}

/** What the entry's name says beside its label: its images, and that it is the target. */
function nameOf(entry: TreeEntry): string {
  return [
    entry.label,
    entry.count === undefined ? null : t('triage.sidebar.count', { count: entry.count }),
    entry.target ? t('triage.sidebar.targetMark') : null,
  ]
    .filter((part): part is string => part !== null)
    .join(', ');
}

function EntryRow(props: {
  entry: TreeEntry;
  onFold?: SidebarTreeProps['onFold'];
  onMore: (event: MouseEvent<HTMLElement>) => void;
}): ReactNode {
  const { entry } = props;
  return (
    <>
      {entry.expanded === undefined ? (
        <span className="sidebar-tree__twisty" aria-hidden="true" />
      ) : (
        <span
          className="sidebar-tree__twisty sidebar-tree__twisty--fold"
          aria-hidden="true"
          data-expanded={entry.expanded}
          onClick={(event) => {
            event.stopPropagation();
            props.onFold?.(entry.id, !entry.expanded);
          }}
        />
      )}
      <span className="sidebar-tree__label">{entry.label}</span>
      {entry.target ? (
        <span
          className="sidebar-tree__target"
          aria-hidden="true"
          title={t('triage.target', { board: entry.label })}
        >
          ◎
        </span>
      ) : null}
      {entry.count === undefined ? null : (
        <span className="sidebar-tree__count" aria-hidden="true">
          {entry.count}
        </span>
      )}
      {/* For the pointer; the keyboard opens the same menu with Shift+F10 or the Menu key. */}
      <button
        type="button"
        className="sidebar-tree__more"
        tabIndex={-1}
        aria-hidden="true"
        title={t('triage.sidebar.actions', { name: entry.label })}
        onClick={props.onMore}
      >
        …
      </button>
    </>
  );
}

/** The element of the entry `id` under `root` (ids are board keys: any text). */
export function entryElement(root: ParentNode | null, id: string): HTMLElement | null {
  const all = root?.querySelectorAll<HTMLElement>('[data-entry]') ?? [];
  return [...all].find((element) => element.dataset['entry'] === id) ?? null;
}

/** One entry: a tree item that shows its row. */
function TreeItem(props: {
  entry: TreeEntry;
  tabbable: boolean;
  tree: SidebarTreeProps;
  onFocus: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}) {
  const { entry, tree } = props;
  return (
    <li
      role="treeitem"
      data-entry={entry.id}
      aria-level={entry.level}
      aria-selected={entry.current}
      aria-expanded={entry.expanded}
      aria-label={nameOf(entry)}
      aria-current={entry.current ? 'true' : undefined}
      tabIndex={props.tabbable ? 0 : -1}
      className={[
        'sidebar-tree__entry',
        entry.current ? 'sidebar-tree__entry--current' : '',
        entry.dropping ? 'sidebar-tree__entry--drop' : '',
      ]
        .filter(Boolean)
        .join(' ')}
      style={{ '--level': entry.level } as CSSProperties}
      onFocus={props.onFocus}
      onClick={() => tree.onChoose(entry.id)}
      onKeyDown={props.onKeyDown}
      onContextMenu={(event) => {
        event.preventDefault();
        tree.onMenu({ ...menuAt(entry, event.currentTarget), x: event.clientX, y: event.clientY });
      }}
      {...tree.dropProps?.(entry.id)}
    >
      <EntryRow
        entry={entry}
        onFold={tree.onFold}
        onMore={(event) => {
          event.stopPropagation();
          const from = event.currentTarget.closest<HTMLElement>('[role="treeitem"]');
          if (from) tree.onMenu(menuAt(entry, from));
        }}
      />
    </li>
  );
}

export function SidebarTree(props: SidebarTreeProps) {
  const { label, entries, describedBy } = props;
  const list = useRef<HTMLUListElement>(null);
  const [active, setActive] = useState<string | null>(null);
  const focusAt = (index: number): void => {
    const id = entries[index]?.id;
    if (id === undefined) return;
    setActive(id);
    entryElement(list.current, id)?.focus();
  };
  const onKeyDown = useTreeKeys(props, focusAt);
  // The Tab stop: the entry last moved to, else the one shown, else the first.
  const stop =
    entries.find((entry) => entry.id === active)?.id ??
    entries.find((entry) => entry.current)?.id ??
    entries[0]?.id;
  return (
    <ul
      ref={list}
      role="tree"
      aria-label={label}
      aria-describedby={describedBy}
      className="sidebar-tree"
    >
      {entries.map((entry, index) => (
        <TreeItem
          key={entry.id}
          entry={entry}
          tabbable={entry.id === stop}
          tree={props}
          onFocus={() => setActive(entry.id)}
          onKeyDown={(event) => onKeyDown(event, index)}
        />
      ))}
    </ul>
  );
}
