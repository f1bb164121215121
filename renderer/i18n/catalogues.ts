/**
 * Loading a language's messages. English is compiled in; each other language is its own chunk
 * (a dynamic import per file, so the first paint never waits for, or carries, twenty catalogues).
 *
 * A loaded catalogue is checked before use: only known keys, only strings, each of bounded
 * length. A damaged or tampered file then loses its bad entries (English shows instead), never
 * the window.
 */
import { PSEUDO_LOCALE, SOURCE_LOCALE } from '../../shared/domain/locales';

type Messages = Readonly<Record<string, unknown>>;
type Loader = () => Promise<{ default: Messages }>;

/** One loader per translated locale; `catalogues.test.ts` checks it matches `LOCALES`. */
export const CATALOGUE_LOADERS: Readonly<Record<string, Loader>> = {
  ar: () => import('./locales/ar.json'),
  cs: () => import('./locales/cs.json'),
  de: () => import('./locales/de.json'),
  es: () => import('./locales/es.json'),
  fa: () => import('./locales/fa.json'),
  fr: () => import('./locales/fr.json'),
  he: () => import('./locales/he.json'),
  hi: () => import('./locales/hi.json'),
  id: () => import('./locales/id.json'),
  it: () => import('./locales/it.json'),
  ja: () => import('./locales/ja.json'),
  ko: () => import('./locales/ko.json'),
  nl: () => import('./locales/nl.json'),
  pl: () => import('./locales/pl.json'),
  'pt-BR': () => import('./locales/pt-BR.json'),
  ru: () => import('./locales/ru.json'),
  sv: () => import('./locales/sv.json'),
  tr: () => import('./locales/tr.json'),
  uk: () => import('./locales/uk.json'),
  vi: () => import('./locales/vi.json'),
  'zh-CN': () => import('./locales/zh-CN.json'),
  'zh-TW': () => import('./locales/zh-TW.json'),
};

/**
 * The main process's catalogue, one loader per translated locale: the window reads error
 * sentences the main process raised (shared/i18n/sentence.ts) in its own language.
 */
export const MAIN_CATALOGUE_LOADERS: Readonly<Record<string, Loader>> = {
  ar: () => import('../../shared/i18n/main-locales/ar.json'),
  cs: () => import('../../shared/i18n/main-locales/cs.json'),
  de: () => import('../../shared/i18n/main-locales/de.json'),
  es: () => import('../../shared/i18n/main-locales/es.json'),
  fa: () => import('../../shared/i18n/main-locales/fa.json'),
  fr: () => import('../../shared/i18n/main-locales/fr.json'),
  he: () => import('../../shared/i18n/main-locales/he.json'),
  hi: () => import('../../shared/i18n/main-locales/hi.json'),
  id: () => import('../../shared/i18n/main-locales/id.json'),
  it: () => import('../../shared/i18n/main-locales/it.json'),
  ja: () => import('../../shared/i18n/main-locales/ja.json'),
  ko: () => import('../../shared/i18n/main-locales/ko.json'),
  nl: () => import('../../shared/i18n/main-locales/nl.json'),
  pl: () => import('../../shared/i18n/main-locales/pl.json'),
  'pt-BR': () => import('../../shared/i18n/main-locales/pt-BR.json'),
  ru: () => import('../../shared/i18n/main-locales/ru.json'),
  sv: () => import('../../shared/i18n/main-locales/sv.json'),
  tr: () => import('../../shared/i18n/main-locales/tr.json'),
  uk: () => import('../../shared/i18n/main-locales/uk.json'),
  vi: () => import('../../shared/i18n/main-locales/vi.json'),
  'zh-CN': () => import('../../shared/i18n/main-locales/zh-CN.json'),
  'zh-TW': () => import('../../shared/i18n/main-locales/zh-TW.json'),
};

/**
 * The main catalogue's file for `tag`, checked like the window's own (English and the
 * pseudo-locale need none: MainCatalogue makes those itself).
 */
export async function loadMainCatalogue(
  tag: string,
  source: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const loader = MAIN_CATALOGUE_LOADERS[tag];
  if (!loader) return {};
  const module = await loader();
  return checkedMessages(module.default, source);
}

/** Longer than any message could sensibly be; a longer value is damage, not a translation. */
const MAX_MESSAGE_CHARS = 4_000;

/** The entries of `loaded` that can stand in for English ones. */
export function checkedMessages(
  loaded: unknown,
  source: Readonly<Record<string, string>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  if (typeof loaded !== 'object' || loaded === null || Array.isArray(loaded)) return kept;
  for (const [key, value] of Object.entries(loaded)) {
    if (!Object.hasOwn(source, key)) continue;
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_MESSAGE_CHARS) {
      continue;
    }
    kept[key] = value;
  }
  return kept;
}

/**
 * The messages of `tag`, checked against the English `source` (which needs no loading: an empty
 * result means English throughout).
 */
export async function loadCatalogue(
  tag: string,
  source: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  if (tag === SOURCE_LOCALE) return {};
  if (tag === PSEUDO_LOCALE) {
    const { pseudoCatalogue } = await import('../../shared/i18n/pseudo');
    return pseudoCatalogue(source);
  }
  const loader = CATALOGUE_LOADERS[tag];
  if (!loader) return {};
  const module = await loader();
  return checkedMessages(module.default, source);
}
