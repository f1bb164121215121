/**
 * A menu's items in a portal over the window (the gallery tile's menu, a sidebar entry's): at its
 * place once measured, hidden until then; the menu's keys and what a picked item does are the
 * caller's.
 */
import { useEffect, useLayoutEffect, useState, type KeyboardEvent, type RefObject } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  readonly id: string;
  readonly label: string;
}

interface MenuListProps<Entry extends MenuItem> {
  readonly menuRef: RefObject<HTMLDivElement | null>;
  readonly label: string;
  /** Where it was asked for (the pointer, or under the entry); a new one places it anew. */
  readonly at: { readonly x: number; readonly y: number };
  readonly entries: readonly Entry[];
  readonly onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  readonly onPick: (entry: Entry) => void;
}

type Place = { readonly left: number; readonly top: number };

/**
 * Where the menu stands: inside the window, measured once drawn (null until then), then its first
 * item focused (a hidden element cannot take the focus).
 */
function useMenuPlacement(
  menuRef: RefObject<HTMLDivElement | null>,
  at: { readonly x: number; readonly y: number },
): Place | null {
  const [place, setPlace] = useState<Place | null>(null);
  useLayoutEffect(() => {
    const menu = menuRef.current;
    if (!menu) return;
    const { width, height } = menu.getBoundingClientRect();
    setPlace({
      left: Math.max(4, Math.min(at.x, window.innerWidth - width - 4)),
      top: Math.max(4, Math.min(at.y, window.innerHeight - height - 4)),
    });
  }, [menuRef, at]);
  useEffect(() => {
    if (place) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [place, menuRef]);
  return place;
}

export function MenuList<Entry extends MenuItem>(props: MenuListProps<Entry>) {
  const { menuRef, label, at, entries, onKeyDown, onPick } = props;
  const place = useMenuPlacement(menuRef, at);
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
