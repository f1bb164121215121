/**
 * The main process's language: menus, notifications and dialogs read their words through
 * {@link mainText}, in the locale the `language` setting picks (`system`: the first of the
 * system's languages Pictor speaks, else English). The host tells it the system's languages
 * ({@link useSystemLanguages}) and follows the setting ({@link followMainLanguage}); a change
 * applies to everything built afterwards (the menu is rebuilt by the host), with no restart.
 * Electron-free: the system's languages come in as a function.
 */
import { resolveLocale, type LocaleInfo } from '../../../shared/domain/locales';
import { MainCatalogue, type MainParams } from '../../../shared/i18n/main-catalogue';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { MAIN_TRANSLATIONS } from '../../../shared/i18n/main-translations';
import { sentenceText, type Sentence } from '../../../shared/i18n/sentence';
import type { Disposable } from '../../ports/disposable';

let preference = 'system';
let systemLanguages: () => readonly string[] = () => [];
let active: MainCatalogue | null = null;

function current(): MainCatalogue {
  if (!active) {
    let languages: readonly string[];
    try {
      languages = systemLanguages();
    } catch {
      languages = [];
    }
    const info = resolveLocale(preference, languages);
    active = new MainCatalogue(info, MAIN_TRANSLATIONS[info.tag]);
  }
  return active;
}

/** Where `system` reads the system's languages, most wanted first (asked again on each change). */
export function useSystemLanguages(provider: () => readonly string[]): void {
  systemLanguages = provider;
  active = null;
}

/**
 * Shows `language` (the setting's value: `system` or a locale tag) from now on; returns whether
 * the locale shown changed (the caller then rebuilds what it built before, e.g. the menu).
 */
export function setMainLanguage(language: string): boolean {
  const before = current().info.tag;
  preference = language;
  active = null;
  return current().info.tag !== before;
}

/** The locale the main process shows. */
export function mainLocale(): LocaleInfo {
  return current().info;
}

/** The message for `key` in the current language with its placeholders filled in; never throws. */
export function mainText(key: MainMessageKey, params: MainParams = {}): string {
  return current().text(key, params);
}

/**
 * What an error or a stored failure reads as in the current language: its sentence when it has
 * one, else its message (for a native dialog, a notification; the window does the same itself).
 */
export function mainSentence(said: {
  readonly message: string;
  readonly sentence?: Sentence | undefined;
}): string {
  return sentenceText(current(), said);
}

/** `items` joined as the current language joins a list ("a, b, and c"; "a、b、c"). */
export function mainList(items: readonly string[]): string {
  try {
    return new Intl.ListFormat(current().formatTag, { type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}

/** What {@link followMainLanguage} reads: the settings service's `get` and `onChange`. */
export interface LanguageSetting {
  get(): { readonly language: string };
  onDidChange(listener: (settings: { readonly language: string }) => void): Disposable;
}

/**
 * Applies the `language` setting now and after each change; `onChanged` runs when the locale
 * shown changed. Dispose the result to stop following.
 */
export function followMainLanguage(setting: LanguageSetting, onChanged: () => void): Disposable {
  setMainLanguage(setting.get().language);
  return setting.onDidChange((settings) => {
    if (setMainLanguage(settings.language)) onChanged();
  });
}
