/**
 * The languages Pictor speaks. Each entry names itself in its own language (a person looking for
 * their language reads it in that language) and says which way its text runs.
 *
 * English is the source: the renderer compiles its catalogue into the bundle and loads every other
 * language (a JSON file under `renderer/i18n/locales/`) only when chosen. `en-XA` is the pseudo-locale: English made
 * longer and accented, computed on demand, to show truncation and strings that bypass the
 * catalogue.
 */
export type TextDirection = 'ltr' | 'rtl';

export interface LocaleInfo {
  /** A BCP 47 tag, also the file name under `locales/`. */
  readonly tag: string;
  /** The language's own name for itself. */
  readonly name: string;
  readonly dir: TextDirection;
}

export const SOURCE_LOCALE = 'en';
export const PSEUDO_LOCALE = 'en-XA';

export const LOCALES: readonly LocaleInfo[] = [
  { tag: 'en', name: 'English', dir: 'ltr' },
  { tag: 'ar', name: 'العربية', dir: 'rtl' },
  { tag: 'cs', name: 'Čeština', dir: 'ltr' },
  { tag: 'de', name: 'Deutsch', dir: 'ltr' },
  { tag: 'es', name: 'Español', dir: 'ltr' },
  { tag: 'fa', name: 'فارسی', dir: 'rtl' },
  { tag: 'fr', name: 'Français', dir: 'ltr' },
  { tag: 'he', name: 'עברית', dir: 'rtl' },
  { tag: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { tag: 'id', name: 'Bahasa Indonesia', dir: 'ltr' },
  { tag: 'it', name: 'Italiano', dir: 'ltr' },
  { tag: 'ja', name: '日本語', dir: 'ltr' },
  { tag: 'ko', name: '한국어', dir: 'ltr' },
  { tag: 'nl', name: 'Nederlands', dir: 'ltr' },
  { tag: 'pl', name: 'Polski', dir: 'ltr' },
  { tag: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { tag: 'ru', name: 'Русский', dir: 'ltr' },
  { tag: 'sv', name: 'Svenska', dir: 'ltr' },
  { tag: 'tr', name: 'Türkçe', dir: 'ltr' },
  { tag: 'uk', name: 'Українська', dir: 'ltr' },
  { tag: 'vi', name: 'Tiếng Việt', dir: 'ltr' },
  { tag: 'zh-CN', name: '简体中文', dir: 'ltr' },
  { tag: 'zh-TW', name: '繁體中文', dir: 'ltr' },
  { tag: PSEUDO_LOCALE, name: 'Pseudo (ƥšéûđö)', dir: 'ltr' },
];

/** The language setting: `system`, or one of the tags above. */
export const LANGUAGE_CHOICES: readonly [string, ...string[]] = [
  'system',
  ...LOCALES.map((info) => info.tag),
];

const BY_TAG = new Map(LOCALES.map((info) => [info.tag.toLowerCase(), info]));

/** The entry for a supported tag (any case), or undefined. */
export function localeInfo(tag: string): LocaleInfo | undefined {
  return BY_TAG.get(tag.toLowerCase());
}

/** Chinese written in traditional characters: Taiwan, Hong Kong, Macau, or an explicit script. */
function traditionalChinese(tag: string): boolean {
  return /-(hant|tw|hk|mo)(-|$)/i.test(tag);
}

/**
 * The supported locale closest to one the system asks for: the tag itself, then its language
 * (pt-PT reads Brazilian Portuguese rather than English; Chinese follows its script), or
 * undefined when Pictor does not speak the language.
 */
export function matchLocale(requested: string): LocaleInfo | undefined {
  if (typeof requested !== 'string' || requested.length === 0 || requested.length > 64) {
    return undefined;
  }
  const exact = localeInfo(requested);
  if (exact) return exact;
  const language = requested.split(/[-_]/)[0]?.toLowerCase() ?? '';
  if (language === 'zh') return localeInfo(traditionalChinese(requested) ? 'zh-TW' : 'zh-CN');
  if (language === 'iw') return localeInfo('he');
  if (language === 'in') return localeInfo('id');
  return LOCALES.find(
    (info) => info.tag !== PSEUDO_LOCALE && info.tag.split('-')[0]?.toLowerCase() === language,
  );
}

/**
 * The locale to show for a preference: `system` follows the first of the system's languages
 * that Pictor speaks, English when none; a named locale is used when supported.
 */
export function resolveLocale(preference: string, systemLanguages: readonly string[]): LocaleInfo {
  if (preference !== 'system') {
    const chosen = localeInfo(preference);
    if (chosen) return chosen;
  }
  for (const requested of systemLanguages) {
    const match = matchLocale(requested);
    if (match) return match;
  }
  return LOCALES[0] as LocaleInfo;
}
