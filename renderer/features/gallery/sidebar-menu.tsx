/**
 * An entry's actions in the boards sidebar, as a menu at the pointer (or under the entry, from the
 * keyboard): Up, Down, Home and End move, Enter or Space acts, Escape or Tab closes and gives the
 * focus back to the entry, as a click elsewhere or the window losing the focus do. An action that
 * opens a dialog starts from the entry, so the dialog gives the focus back to it.
 */
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { menuKeys } from './gallery-context-menu';
import { MenuList } from './menu-list';
import './gallery-basics.css';

export interface SidebarMenuEntry {
  readonly id: string;
  readonly label: string;
  readonly run: () => void;
}

export interface SidebarMenuProps {
  readonly label: string;
  /** Where, and the entry the focus goes back to. */
  readonly at: { readonly from: HTMLElement; readonly x: number; readonly y: number };
  readonly entries: readonly SidebarMenuEntry[];
  readonly onClose: () => void;
}

/** A click outside closes the menu; the window losing the focus too, back to the entry. */
function useCloseOnAway(
  menu: RefObject<HTMLDivElement | null>,
  from: HTMLElement,
  onClose: () => void,
): void {
  useEffect(() => {
    const outside = (event: Event): void => {
      if (!menu.current?.contains(event.target as Node)) onClose();
    };
    const away = (): void => {
      const hadFocus = menu.current?.contains(document.activeElement) ?? false;
      onClose();
      if (hadFocus) from.focus();
    };
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('blur', away);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('blur', away);
    };
  }, [menu, from, onClose]);
}

export function SidebarMenu({ label, at, entries, onClose }: SidebarMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  useCloseOnAway(menu, at.from, onClose);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void =>
    menuKeys(event, menu.current, () => {
      onClose();
      at.from.focus();
    });

  return (
    <MenuList
      menuRef={menu}
      label={label}
      at={at}
      entries={entries}
      onKeyDown={onKeyDown}
      onPick={(entry) => {
        // Back to the entry first: a dialog the action opens returns the focus there.
        at.from.focus();
        onClose();
        entry.run();
      }}
    />
  );
}
