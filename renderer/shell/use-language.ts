/**
 * Shows the language from settings: loads its messages on demand and answers the locale shown, so
 * the window can redraw in it (keyed on the answer) without a restart. Until the settings arrive,
 * the system's languages decide.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { activeLocale, applyLocale, subscribeLocale } from '../i18n';
import { useAppStore } from '../store/app-store';

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

/** How long the first paint waits for the settings before it goes ahead in the system's language. */
const FIRST_PAINT_WAIT_MS = 1_000;

/**
 * Loads the language the user chose (or the system's) before the first paint, so the window
 * does not flash in another language. Answers once it is shown, or after a short wait: a main
 * process that does not answer must not keep the window blank.
 */
export async function applyInitialLanguage(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), FIRST_PAINT_WAIT_MS);
  });
  try {
    const settings = await Promise.race([useAppStore.getState().settingsRead(), waited]);
    await applyLocale(settings?.language ?? 'system');
  } finally {
    clearTimeout(timer);
  }
}
