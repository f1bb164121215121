/**
 * The main process's catalogue in every language: English from main-messages.ts, each other
 * language a small JSON file bundled into main (22 × a few KB, read once, so no loading on demand),
 * the pseudo-locale computed from English. Formatting goes through intl-messageformat, as in the
 * renderer; a translation that is missing, does not parse or lacks a value shows English.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { PSEUDO_LOCALE, SOURCE_LOCALE, type LocaleInfo } from '../domain/locales';
import { mainMessages, type MainMessageKey } from './main-messages';
import { pseudoCatalogue } from './pseudo';
import ar from './main-locales/ar.json';
import cs from './main-locales/cs.json';
import de from './main-locales/de.json';
import es from './main-locales/es.json';
import fa from './main-locales/fa.json';
import fr from './main-locales/fr.json';
import he from './main-locales/he.json';
import hi from './main-locales/hi.json';
import id from './main-locales/id.json';
import it from './main-locales/it.json';
import ja from './main-locales/ja.json';
import ko from './main-locales/ko.json';
import nl from './main-locales/nl.json';
import pl from './main-locales/pl.json';
import ptBR from './main-locales/pt-BR.json';
import ru from './main-locales/ru.json';
import sv from './main-locales/sv.json';
import tr from './main-locales/tr.json';
import uk from './main-locales/uk.json';
import vi from './main-locales/vi.json';
import zhCN from './main-locales/zh-CN.json';
import zhTW from './main-locales/zh-TW.json';

export type MainParams = Readonly<Record<string, string | number>>;

/** The translations by locale tag; tests/unit/shared/main-catalogue.test.ts checks it matches LOCALES. */
export const MAIN_TRANSLATIONS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  ar,
  cs,
  de,
  es,
  fa,
  fr,
  he,
  hi,
  id,
  it,
  ja,
  ko,
  nl,
  pl,
  'pt-BR': ptBR,
  ru,
  sv,
  tr,
  uk,
  vi,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
};

/** The entries of `loaded` that can stand in for English ones: known keys, non-empty strings. */
function checked(loaded: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(loaded ?? {})) {
    if (Object.hasOwn(mainMessages, key) && typeof value === 'string' && value.length > 0) {
      kept[key] = value;
    }
  }
  return kept;
}

/** One language's messages, compiled on first use. */
export class MainCatalogue {
  private readonly messages: Readonly<Record<string, string>>;
  private readonly compiled = new Map<string, IntlMessageFormat | null>();
  /** The tag numbers and plurals are formatted for (English for the pseudo-locale). */
  readonly formatTag: string;

  /** `translation`: the locale's bundled file unless given (a test passes a damaged one). */
  constructor(
    readonly info: LocaleInfo,
    translation: Readonly<Record<string, unknown>> | undefined = MAIN_TRANSLATIONS[info.tag],
  ) {
    this.formatTag = info.tag === PSEUDO_LOCALE ? SOURCE_LOCALE : info.tag;
    this.messages =
      info.tag === PSEUDO_LOCALE
        ? pseudoCatalogue(mainMessages)
        : info.tag === SOURCE_LOCALE
          ? {}
          : checked(translation);
  }

  /** The message for `key` with its placeholders filled; never throws. */
  text(key: MainMessageKey, params: MainParams = {}): string {
    const english = mainMessages[key];
    const own = this.messages[key];
    return (
      (own ? this.format(`t:${key}`, own, this.formatTag, params) : null) ??
      this.format(`e:${key}`, english, SOURCE_LOCALE, params) ??
      english
    );
  }

  private format(cacheKey: string, text: string, tag: string, params: MainParams): string | null {
    let message = this.compiled.get(cacheKey);
    if (message === undefined) {
      try {
        message = new IntlMessageFormat(text, tag, undefined, { ignoreTag: true });
      } catch {
        message = null;
      }
      this.compiled.set(cacheKey, message);
    }
    if (!message) return null;
    try {
      const result = message.format(params);
      return typeof result === 'string' ? result : null;
    } catch {
      return null;
    }
  }
}
