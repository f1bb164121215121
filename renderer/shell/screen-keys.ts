/**
 * Keys that switch screens from anywhere in the window: Ctrl+1, 2, 3, 4 (⌘ on a Mac) for Tasks,
 * Gallery, Costs and Settings, the sidebar's order, and Ctrl+, for Settings, as the application
 * menu has them (a host without that menu, or with it hidden, still has the keys). Not while a
 * dialog holds the window.
 */
import { useEffect } from 'react';
import { t } from '../i18n';
import { isMacPlatform } from '../lib/platform';
import { useAppStore } from '../store/app-store';
import type { View } from '../store/ui-slice';

/** Each screen's digit. */
const SCREEN_DIGITS: Readonly<Record<View, string>> = {
  tasks: '1',
  gallery: '2',
  costs: '3',
  settings: '4',
};

/** A key press as the window's shortcuts read it (a KeyboardEvent, or a test's plain object). */
export interface ScreenKey {
  readonly key: string;
  readonly code?: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/** The screen a key asks for, or null (`mac`: ⌘ is the modifier, else Ctrl). */
function screenForKey(event: ScreenKey, mac: boolean): View | null {
  const modifier = mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  if (!modifier || event.altKey || event.shiftKey) return null;
  if (event.key === ',') return 'settings';
  // By the key, or by its place (a layout whose digits need Shift still has the digit row).
  const digit = /^Digit([1-4])$/.exec(event.code ?? '')?.[1] ?? event.key;
  const view = (Object.keys(SCREEN_DIGITS) as View[]).find((name) => SCREEN_DIGITS[name] === digit);
  return view ?? null;
}

/** How a screen's key is written for the user ("Ctrl+2", "⌘2") and for aria-keyshortcuts. */
export function screenShortcut(view: View, mac: boolean): { text: string; aria: string } {
  const digit = SCREEN_DIGITS[view];
  return mac
    ? { text: `⌘${digit}`, aria: `Meta+${digit}` }
    : { text: t('keys.ctrlPlus', { key: digit }), aria: `Control+${digit}` };
}

export function useScreenKeys(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return;
      const state = useAppStore.getState();
      const view = screenForKey(event, isMacPlatform(state.appInfo?.platform));
      // The window is searched for a dialog only for a screen's key, not at every key typed.
      if (view === null || document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      state.setView(view);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
