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

/** Sets `data-theme` on <html> now (before the settings arrive: the OS's choice). */
export function applyTheme(theme: Settings['theme']): void {
  document.documentElement.dataset.theme = resolveTheme(theme, systemPrefersDark());
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
