/**
 * A menu's items in a portal over the window (the gallery tile's menu, a sidebar entry's): at its
 * place once measured, hidden until then; the menu's keys and what a picked item does are the
 * caller's.
 */
import type { KeyboardEvent, RefObject } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  readonly id: string;
  readonly label: string;
}

interface MenuListProps<Entry extends MenuItem> {
  readonly menuRef: RefObject<HTMLDivElement | null>;
  readonly label: string;
  /** Where it stands inside the window; null until measured. */
  readonly place: { readonly left: number; readonly top: number } | null;
  /** Where it was asked for (the pointer, or under the entry). */
  readonly at: { readonly x: number; readonly y: number };
  readonly entries: readonly Entry[];
  readonly onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  readonly onPick: (entry: Entry) => void;
}

export function MenuList<Entry extends MenuItem>(props: MenuListProps<Entry>) {
  const { menuRef, label, place, at, entries, onKeyDown, onPick } = props;
  return createPortal(
    <div
      ref={menuRef}
      role="menu"
      aria-label={label}
      className="gallery-menu"
      style={place ?? { left: at.x, top: at.y, visibility: 'hidden' }}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
    >
      {entries.map((entry) => (
        <button
          key={entry.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="gallery-menu__item"
          data-action={entry.id}
          onClick={() => onPick(entry)}
        >
          {entry.label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
