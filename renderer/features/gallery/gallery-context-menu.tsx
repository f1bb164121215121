import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { MenuList } from './menu-list';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { flagOf, type TriageFlag } from '../../../shared/domain/triage';
import { t, type MessageKey } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { galleryItemAt } from '../../store/record-selectors';
import { refOf } from '../../store/gallery-delete';
import { itemKey } from '../../store/gallery-list-model';
import { findTile } from './use-grid-focus';
import type { ImageActions } from './use-image-actions';
import './gallery-basics.css';

/** A tile's actions menu asked for: the image, where (viewport pixels), and the tile it came from. */
export interface MenuRequest {
  readonly item: GalleryItem;
  readonly x: number;
  readonly y: number;
  /** Gets the focus back when the menu closes without opening something else. */
  readonly from: HTMLElement;
}

/** The keys that open a context menu from the keyboard: Shift+F10 and the Menu key. */
export function menuKey(event: { readonly key: string; readonly shiftKey: boolean }): boolean {
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
}

export interface GalleryContextMenuProps {
  readonly request: MenuRequest | null;
  readonly onClose: () => void;
  readonly onOpen: (key: string) => void;
  readonly onDelete: (item: GalleryItem) => void;
  readonly actions: ImageActions;
}

interface Entry {
  readonly id: string;
  readonly label: string;
  readonly run: () => void;
  /** The entry opens something that takes the focus (the viewer, a question). */
  readonly takesFocus?: boolean;
}

const FLAG_LABELS = {
  pick: 'gallery.menu.favourite',
  reject: 'gallery.menu.reject',
  none: 'gallery.menu.unfavourite',
} as const satisfies Record<TriageFlag, MessageKey>;

/** Pick, Reject and Unflag, but the flag the image has: each a triage change, with Undo. */
function flagEntries(item: GalleryItem): Entry[] {
  const current = flagOf(item.image);
  return (['pick', 'reject', 'none'] as const)
    .filter((flag) => flag !== current)
    .map((flag) => ({
      id: `flag-${flag}`,
      label: t(FLAG_LABELS[flag]),
      run: () =>
        void useAppStore.getState().triageApply([refOf(item)], { kind: 'flag', flag }, [item]),
    }));
}

/** What can be done to the image, as the viewer offers it; file actions need a saved file. */
function entriesOf(
  item: GalleryItem,
  props: Pick<GalleryContextMenuProps, 'onOpen' | 'onDelete' | 'actions'>,
): Entry[] {
  const { actions } = props;
  const saved = item.image.state === 'saved';
  const file: Entry[] = saved
    ? [
        { id: 'copy', label: t('viewer.copyImage'), run: () => actions.copyImage(item) },
        { id: 'save', label: t('viewer.saveAs'), run: () => actions.saveAs(item) },
        { id: 'reveal', label: t('viewer.reveal'), run: () => actions.reveal(item) },
      ]
    : [];
  return [
    {
      id: 'open',
      label: t('gallery.menu.open'),
      run: () => props.onOpen(itemKey(item)),
      takesFocus: true,
    },
    ...file,
    ...flagEntries(item),
    ...(saved
      ? [
          {
            id: 'delete',
            label: t('viewer.delete'),
            run: () => props.onDelete(item),
            takesFocus: true,
          },
        ]
      : []),
  ];
}

/** The window's size now (what a resize compares with). */
function windowSize(): string {
  return `${String(window.innerWidth)}×${String(window.innerHeight)}`;
}

/**
 * A click outside the open menu, a new size of the window or the window losing the focus closes
 * it; the last two give the focus back to the tile (`away`), where the keyboard left off. A
 * `resize` event is said at the next frame, which a busy machine may give long after the size
 * changed: one for a size the menu opened in (the window was resized, then the menu asked for) is
 * no reason to close it.
 */
function useCloseOnAway(
  menuRef: RefObject<HTMLDivElement | null>,
  request: MenuRequest | null,
  onClose: () => void,
): void {
  useEffect(() => {
    if (!request) return;
    const openedIn = windowSize();
    const away = (): void => {
      const hadFocus = menuRef.current?.contains(document.activeElement) ?? false;
      onClose();
      if (hadFocus) tileOf(request)?.focus();
    };
    const outside = (event: Event): void => {
      if (!menuRef.current?.contains(event.target as Node)) onClose();
    };
    const resized = (): void => {
      if (windowSize() !== openedIn) away();
    };
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('resize', resized);
    window.addEventListener('blur', away);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('resize', resized);
      window.removeEventListener('blur', away);
    };
  }, [request, onClose, menuRef]);
}

/**
 * The tile to give the focus back to: the one the menu came from, or, when the grid has mounted
 * that image's tile anew meanwhile (a new width moves tiles to other rows), the tile that shows it
 * now, found as the grid finds its tiles.
 */
function tileOf(request: MenuRequest): HTMLElement | null {
  if (request.from.isConnected) return request.from;
  return findTile(document.body, itemKey(request.item));
}

/**
 * A tile's actions as a menu at the pointer (or over the tile, from the keyboard): arrow keys,
 * Home and End move, Enter or Space acts, Escape or Tab closes and gives the focus back to the
 * tile, as does a click elsewhere.
 */
export function GalleryContextMenu(props: GalleryContextMenuProps) {
  const { request, onClose } = props;
  const menuRef = useRef<HTMLDivElement>(null);
  useCloseOnAway(menuRef, request, onClose);
  // The image as the records table has it now: a change answered after the menu opened (a pick
  // main wrote a moment later) shows in its entries, never the copy the tile had at the click.
  const live = useAppStore((state) =>
    request ? galleryItemAt(state.records, refOf(request.item)) : undefined,
  );

  if (!request) return null;
  const entries = entriesOf(live ?? request.item, props);
  const close = (refocus: boolean): void => {
    onClose();
    if (refocus) tileOf(request)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    menuKeys(event, menuRef.current, () => close(true));
  };

  return (
    <MenuList
      menuRef={menuRef}
      label={t('gallery.menu.label')}
      at={request}
      entries={entries}
      onKeyDown={onKeyDown}
      onPick={(entry) => {
        close(!entry.takesFocus);
        entry.run();
      }}
    />
  );
}

/**
 * A menu's keys (the tile's, a sidebar entry's): Up, Down, Home and End move between its items;
 * Escape, Tab and the menu keys close it.
 */
export function menuKeys(
  event: KeyboardEvent<HTMLDivElement>,
  menu: HTMLDivElement | null,
  close: () => void,
): void {
  const items = [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const index = items.indexOf(document.activeElement as HTMLElement);
  const moves: Record<string, number> = {
    ArrowDown: (index + 1) % items.length,
    ArrowUp: (index - 1 + items.length) % items.length,
    Home: 0,
    End: items.length - 1,
  };
  const to = moves[event.key];
  if (to !== undefined) {
    event.preventDefault();
    items[to]?.focus();
  } else if (event.key === 'Escape' || event.key === 'Tab' || menuKey(event)) {
    event.preventDefault();
    event.stopPropagation();
    close();
  }
}
