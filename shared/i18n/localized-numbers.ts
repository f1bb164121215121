/**
 * Numbers in messages in the language's own digits. ICU's plural `#` and `{n, number}` are
 * formatted for the locale, but a plain `{n}` given a number is written with `String(n)` by
 * intl-messageformat: in Arabic "الصورة 3 من ٣٠٠" mixed Latin and Arabic-Indic digits in one
 * window. {@link withTextArguments} renames every plain argument of a compiled message, and
 * {@link textParams} gives those names their values, a number already formatted for the locale;
 * plural, select and number arguments keep the raw value they need.
 */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { shownValue } from '../text/shown-value';

/** ICU names cannot hold `~`: a renamed argument never meets one a message names itself. */
const TEXT_PREFIX = '~';

/** Element types of @formatjs/icu-messageformat-parser (its TYPE enum, by value). */
const ARGUMENT = 1;
const SELECT = 5;
const PLURAL = 6;
const TAG = 8;

/**
 * `text` compiled for `tag`, each plain `{name}` read from `~name` (see {@link textParams}), so
 * it is written in the locale's digits as `#` is; null when it does not parse.
 */
export function compileMessage(text: string, tag: string): IntlMessageFormat | null {
  try {
    const parsed = new IntlMessageFormat(text, tag, undefined, { ignoreTag: true });
    return new IntlMessageFormat(withTextArguments(parsed.getAst()), tag, undefined, {
      ignoreTag: true,
    });
  } catch {
    return null;
  }
}

/** The message with each plain `{name}` read from `~name` (see {@link textParams}). */
function withTextArguments(ast: readonly MessageFormatElement[]): MessageFormatElement[] {
  return ast.map((element): MessageFormatElement => {
    switch (element.type as number) {
      case ARGUMENT: {
        const { value } = element as { value: string };
        return { ...element, value: TEXT_PREFIX + value } as MessageFormatElement;
      }
      case SELECT:
      case PLURAL: {
        const { options } = element as {
          options: Record<string, { value: MessageFormatElement[] }>;
        };
        const renamed = Object.fromEntries(
          Object.entries(options).map(([key, option]) => [
            key,
            { ...option, value: withTextArguments(option.value) },
          ]),
        );
        return { ...element, options: renamed } as MessageFormatElement;
      }
      case TAG: {
        const { children } = element as { children: MessageFormatElement[] };
        return { ...element, children: withTextArguments(children) } as MessageFormatElement;
      }
      default:
        return element;
    }
  });
}

/**
 * `params` plus each value under its `~name`, a number written by `formatNumber`, and, given
 * `blank`, a text with nothing in it (a model a request did not name, a field left empty) as
 * `blank()`, the catalogue's word for none: spliced in as it is, it left a gap ("The model  has
 * no option"). The main catalogue's sentences never mean an empty value; the window's own
 * messages do (a label's optional suffix), and pass none. A text is written as a value a person
 * can trust to be one (shared/text/shown-value.ts: no line break, control or bidi formatting of
 * its own). Select and plural arguments keep the raw value (a select may choose on the empty text).
 */
export function textParams(
  params: Readonly<Record<string, string | number>>,
  formatNumber: (value: number) => string,
  blank?: () => string,
): Record<string, string | number> {
  const all: Record<string, string | number> = { ...params };
  for (const [name, value] of Object.entries(params)) {
    all[TEXT_PREFIX + name] =
      typeof value === 'number'
        ? Number.isFinite(value)
          ? formatNumber(value)
          : value
        : blank && value.trim() === ''
          ? blank()
          : shownValue(value);
  }
  return all;
}
