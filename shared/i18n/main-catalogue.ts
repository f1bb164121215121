/**
 * The main process's catalogue in one language: English from main-messages.ts, the other
 * language's JSON file as given (main bundles all of them, main-translations.ts; the renderer loads
 * the one it shows on demand, for error sentences), the pseudo-locale computed from English. Formatting goes through intl-messageformat, as in the
 * renderer; a translation that is missing, does not parse or lacks a value shows English.
 */
import type { IntlMessageFormat } from 'intl-messageformat';
import { PSEUDO_LOCALE, SOURCE_LOCALE, type LocaleInfo } from '../domain/locales';
import { mainMessages, type MainMessageKey } from './main-messages';
import { pseudoCatalogue } from './pseudo';
import { compileMessage, textParams } from './localized-numbers';
import { DIMENSION_DIGITS, withSizes } from './dimensions';
import { withServiceNames } from './service-names';
import { formatMoney, withMoney } from './money';
import type { CostUnit } from '../domain/task-cost';
export type MainParams = Readonly<Record<string, string | number>>;

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
  private digits: Intl.NumberFormat | null = null;
  private sizeDigits: Intl.NumberFormat | null = null;
  /** This language's word for an empty value (`value.none`), read on first need. */
  private blank: string | null = null;
  /** The tag numbers and plurals are formatted for (English for the pseudo-locale). */
  readonly formatTag: string;

  /**
   * `translation`: the locale's file, as parsed (main passes the bundled one from
   * main-translations.ts, the renderer the chunk it loaded, a test a damaged one). `formatTag`:
   * the locale numbers and money are written for when not the language's own (the window passes
   * the system's region, en-GB, so its own amounts and main's read alike).
   */
  constructor(
    readonly info: LocaleInfo,
    translation: Readonly<Record<string, unknown>> | undefined,
    formatTag?: string,
  ) {
    this.formatTag = formatTag ?? (info.tag === PSEUDO_LOCALE ? SOURCE_LOCALE : info.tag);
    this.messages =
      info.tag === PSEUDO_LOCALE
        ? pseudoCatalogue(mainMessages)
        : info.tag === SOURCE_LOCALE
          ? {}
          : checked(translation);
  }

  /** The message for `key` with its placeholders filled; never throws. */
  text(key: MainMessageKey, given: MainParams = {}): string {
    const english = mainMessages[key];
    const own = this.messages[key];
    const params = withServiceNames(
      withSizes(
        withMoney(key, given, (micros, unit) => this.money(micros, unit)),
        () => (this.sizeDigits ??= new Intl.NumberFormat(this.formatTag, DIMENSION_DIGITS)),
      ),
      (name) => this.text(name),
    );
    return (
      (own ? this.format(`t:${key}`, own, this.formatTag, params) : null) ??
      this.format(`e:${key}`, english, SOURCE_LOCALE, params) ??
      english
    );
  }

  /** An amount as this language writes money (shared/i18n/money.ts): `$0.25`, `3 credits`. */
  money(micros: number, unit: CostUnit): string {
    return formatMoney(micros, unit, this.formatTag, (amount) =>
      this.text('money.credits', { amount }),
    );
  }

  private format(cacheKey: string, text: string, tag: string, params: MainParams): string | null {
    let message = this.compiled.get(cacheKey);
    if (message === undefined) {
      // Plain `{n}` arguments in the locale's digits, as `#` is (localized-numbers.ts).
      message = compileMessage(text, tag);
      this.compiled.set(cacheKey, message);
    }
    if (!message) return null;
    try {
      this.digits ??= new Intl.NumberFormat(this.formatTag);
      const digits = this.digits;
      // The word for an empty value has no values: asking for it never comes back here for it.
      const blank = () => (this.blank ??= this.text('value.none'));
      const result = message.format(textParams(params, (value) => digits.format(value), blank));
      return typeof result === 'string' ? result : null;
    } catch {
      return null;
    }
  }
}
