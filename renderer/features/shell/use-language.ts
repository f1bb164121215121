/**
 * Shows the language from settings: loads its messages on demand and answers the locale shown, so
 * the window can redraw in it (keyed on the answer) without a restart. Until the settings arrive,
 * the system's languages decide.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { activeLocale, applyLocale, subscribeLocale } from '../../i18n';
import { useAppStore } from '../../store/app-store';

function shownTag(): string {
  return activeLocale().tag;
}

export function useAppliedLanguage(): string {
  const preference = useAppStore((state) => state.settings?.language ?? 'system');
  useEffect(() => {
    void applyLocale(preference);
  }, [preference]);
  return useSyncExternalStore(subscribeLocale, shownTag);
}
