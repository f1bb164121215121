/**
 * Whether the boards sidebar is open, its fold button and its key (Ctrl/Cmd+\). In a window wide
 * enough for it the sidebar is as the user left it, kept for the next start
 * (store/boards-slice.ts); in a narrow one (under 900 CSS pixels: an 800x600 window, or a
 * 1280x800 one at 200 % zoom) it folds by itself, so the images keep the window, and the button
 * and the key open it for as long as the window stays narrow: the remembered choice is left as
 * it was, and comes back with the width.
 */
import { useCallback, useEffect } from 'react';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';
import { isMacPlatform } from '../../lib/platform';
import { isSidebarKey, sidebarShortcut } from '../../lib/sidebar-key';
import { useMediaQuery } from '../../lib/use-media-query';
import { useAppStore } from '../../store/app-store';

const store = useAppStore.getState;

/** Where the sidebar folds by itself (56.25rem: 900 CSS pixels). */
const NARROW_QUERY = '(max-width: 56.25rem)';

export interface SidebarFold {
  readonly open: boolean;
  /** The window is narrow: opened, the sidebar lies over the gallery, which keeps its width. */
  readonly narrow: boolean;
  readonly toggle: () => void;
}

/** Ctrl/Cmd+\ while the gallery is the screen shown and no dialog holds the window. */
function useSidebarKey(toggle: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || !isSidebarKey(event)) return;
      if (store().view !== 'gallery' || document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      toggle();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [toggle]);
}

export function useSidebarFold(): SidebarFold {
  const narrow = useMediaQuery(NARROW_QUERY);
  const open = useAppStore((s) => (narrow ? s.boardsSidebarNarrowOpen : s.boardsSidebarOpen));
  // Opened in a narrow window: for that time only (the next narrow window starts folded).
  useEffect(() => {
    if (!narrow) useAppStore.setState({ boardsSidebarNarrowOpen: false });
  }, [narrow]);
  const toggle = useCallback(() => store().boardsToggleSidebar(narrow), [narrow]);
  useSidebarKey(toggle);
  return { open, narrow, toggle };
}

/**
 * The fold button, in the sidebar's toolbar or alone when folded: named by what it does, its
 * tooltip with the key, `aria-expanded` saying whether the sidebar is open.
 */
export function FoldButton({ fold }: { fold: SidebarFold }) {
  const mac = useAppStore((s) => isMacPlatform(s.appInfo?.platform));
  const keys = sidebarShortcut(mac);
  const { open } = fold;
  return (
    <IconButton
      icon="folder"
      size="small"
      className="boards-sidebar__toggle"
      label={t(open ? 'triage.sidebar.hide' : 'triage.sidebar.show')}
      title={t(open ? 'triage.sidebar.hideTip' : 'triage.sidebar.showTip', { keys: keys.text })}
      aria-keyshortcuts={keys.aria}
      aria-expanded={open}
      onClick={fold.toggle}
    />
  );
}
