/** Applies the theme from settings to <html data-theme>; `system` follows the OS and its changes. */
import { useEffect } from 'react';
import type { Settings } from '../../shared/domain/settings';
import { useAppStore } from '../store/app-store';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** The theme to show for a setting. */
function resolveTheme(theme: Settings['theme'], prefersDark: boolean): 'light' | 'dark' {
  if (theme === 'system') return prefersDark ? 'dark' : 'light';
  return theme;
}

/**
 * Sets `data-theme` on <html> now (before the settings arrive: the OS's choice). A change from one
 * theme to the other is drawn in one frame: its new colours are computed while
 * `data-theme-switching` holds transitions off (styles/tokens.css), since a transition under way
 * (a button's background) would draw the new text on the old background meanwhile, unreadable.
 * Transitions are back at once for whatever changes later.
 */
export function applyTheme(theme: Settings['theme']): void {
  const root = document.documentElement;
  const next = resolveTheme(theme, systemPrefersDark());
  const before = root.dataset.theme;
  if (before === next) return;
  if (before === undefined) {
    root.dataset.theme = next;
    return;
  }
  root.dataset.themeSwitching = '';
  root.dataset.theme = next;
  // A layout read computes every element's style now, with the new theme and no transition.
  document.body.getBoundingClientRect();
  delete root.dataset.themeSwitching;
}

export function useAppliedTheme(): void {
  const theme = useAppStore((state) => state.settings?.theme ?? 'system');
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system' || typeof window.matchMedia !== 'function') return undefined;
    const media = window.matchMedia(DARK_QUERY);
    const follow = (): void => applyTheme('system');
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, [theme]);
}
