/**
 * The gallery sidebar's key: Ctrl+\ (⌘\ on a Mac) shows or hides the boards, as code editors and
 * mail apps fold their sidebars. Read by the key's place (`Backslash`) or by its character, so a
 * layout that types \ elsewhere (AltGr+ß on German keyboards) still has the key where US
 * layouts do. No other key of the window uses it (screen-keys.ts, triage-keys.ts, the menu).
 */
import { t } from '../i18n';

interface KeyLike {
  readonly key: string;
  readonly code?: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

export function isSidebarKey(event: KeyLike): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    !event.shiftKey &&
    !event.altKey &&
    (event.code === 'Backslash' || event.key === '\\')
  );
}

/** How the key is written for the user ("Ctrl+\", "⌘\") and for aria-keyshortcuts. */
export function sidebarShortcut(mac: boolean): { text: string; aria: string } {
  return mac
    ? { text: '⌘\\', aria: 'Meta+\\' }
    : { text: t('keys.ctrlPlus', { key: '\\' }), aria: 'Control+\\' };
}
