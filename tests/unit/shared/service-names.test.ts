/**
 * A service named in a main sentence (`{service}`) by the generic service's label is written in
 * the reader's language (shared/i18n/service-names.ts): "Image task service" in a German window's
 * "… hat keine eigene Adresse" was English. Every sentence with a `{service}`, in every locale and
 * the pseudo-locale; a brand stays as it is; a sentence stored with the label before says it too.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../../shared/domain/providers';
import {
  LOCALES,
  SOURCE_LOCALE,
  localeInfo,
  type LocaleInfo,
} from '../../../shared/domain/locales';
import { MainCatalogue } from '../../../shared/i18n/main-catalogue';
import { MAIN_TRANSLATIONS } from '../../../shared/i18n/main-translations';
import { mainMessages, type MainMessageKey } from '../../../shared/i18n/main-messages';
import { sentence, sentenceText } from '../../../shared/i18n/sentence';

const NAMING = (Object.keys(mainMessages) as MainMessageKey[]).filter((key) =>
  /\{service[,}]/.test(mainMessages[key]),
);
const GENERIC = PROVIDERS.pictor.label;
/** A value for each of `key`'s other placeholders: a number where it is counted, else a word. */
function othersOf(key: MainMessageKey): Record<string, string | number> {
  const message = mainMessages[key];
  const values: Record<string, string | number> = {};
  for (const [, name, kind] of message.matchAll(/\{(\w+)(?:,\s*(\w+))?/g)) {
    if (name === undefined || name === 'service') continue;
    values[name] = kind === 'plural' || kind === 'number' ? 2 : 'x';
  }
  return values;
}

function catalogueOf(tag: string): MainCatalogue {
  return new MainCatalogue(localeInfo(tag) as LocaleInfo, MAIN_TRANSLATIONS[tag]);
}

describe('the generic service named in a sentence', () => {
  it('is among the sentences that name a service', () => {
    expect(NAMING).toEqual(
      expect.arrayContaining([
        'error.compare.noAddress',
        'error.compare.noQuality',
        'error.compare.aspectRatio',
        'error.compare.noAspectRatio',
      ]),
    );
  });

  it.each(LOCALES.filter((info) => info.tag !== SOURCE_LOCALE).map((info) => info.tag))(
    'is written in %s, a brand as it is',
    (tag) => {
      const catalogue = catalogueOf(tag);
      const own = catalogue.text('service.pictor');
      expect(own).not.toBe(GENERIC);
      for (const key of NAMING) {
        const generic = catalogue.text(key, { ...othersOf(key), service: GENERIC });
        expect({ key, generic }).toEqual({ key, generic: expect.stringContaining(own) });
        expect(generic).not.toContain(GENERIC);
        expect(catalogue.text(key, { ...othersOf(key), service: 'fal.ai' })).toContain('fal.ai');
      }
    },
  );

  it('is the label itself in English (the CLI, the log), and in a sentence stored before', () => {
    const english = catalogueOf(SOURCE_LOCALE);
    const said = sentence('error.compare.noAddress', { service: GENERIC });
    expect(english.text(said.key, said.params)).toBe(
      'Image task service has no address of its own: give it one (a base URL).',
    );
    // A history row or IPC error read back carries the same values: German names it in German.
    expect(sentenceText(catalogueOf('de'), { message: '', sentence: said })).toMatch(
      /^Bildaufgaben-Dienst /,
    );
  });
});
