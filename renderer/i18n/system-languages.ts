/**
 * The languages the system asks for, most wanted first, as the page's formats read them
 * (renderer/i18n/index.ts): read from `navigator` once, and again after the browser tells the
 * page they changed (`languagechange`). Read at every call before, they were built anew for each
 * `t()` and formatter, a few hundred times a frame.
 */

/**
 * `tag` as a well-formed BCP 47 tag the page's formats take, or null: a POSIX spelling
 * (`de_DE.UTF-8@euro`) is read as `de-DE`, and what is not a language tag at all (`de-`, `C`) is
 * left out. The formats are built from these (index.ts formatTagFor): `new Intl.NumberFormat` of
 * `de_DE` throws, and every `t()` with a number, every date on the page threw with it.
 */
function wellFormed(tag: unknown): string | null {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > 64) return null;
  try {
    return Intl.getCanonicalLocales(tag.replace(/[.@].*$/s, '').replaceAll('_', '-'))[0] ?? null;
  } catch {
    return null;
  }
}

/** The list as last read; undefined until the first read and after a change. */
let languages: readonly string[] | undefined;
const listeners = new Set<() => void>();

/** The system's languages: the app's own locale first, then the user's other choices. */
export function systemLocales(): readonly string[] {
  if (languages) return languages;
  if (typeof navigator === 'undefined') return [];
  // Electron sets the app's locale from the system's.
  languages = [navigator.language, ...(navigator.languages ?? [])]
    .map(wellFormed)
    .filter((tag): tag is string => tag !== null);
  return languages;
}

/** Calls `listener` after the system's languages changed (the next read has the new ones). */
export function onSystemLanguagesChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  window.addEventListener('languagechange', () => {
    languages = undefined;
    for (const listener of listeners) listener();
  });
}
