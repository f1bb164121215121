/**
 * What an edit's plan and its inputs say is catalogue sentences (shared/i18n/errors/edit.ts): each
 * reads as its English, reads otherwise in German, Japanese and the pseudo-locale with every
 * value it carries kept, and passes the schema sentences cross IPC with.
 */
import { describe, expect, it } from 'vitest';
import { localeInfo, type LocaleInfo } from '../../../../shared/domain/locales';
import { sizeParam } from '../../../../shared/i18n/dimensions';
import { editErrors } from '../../../../shared/i18n/errors/edit';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { MAIN_TRANSLATIONS } from '../../../../shared/i18n/main-translations';
import { englishText, sentence, sentenceSchema } from '../../../../shared/i18n/sentence';

const others = [
  new MainCatalogue(localeInfo('de') as LocaleInfo, MAIN_TRANSLATIONS['de']),
  new MainCatalogue(localeInfo('ja') as LocaleInfo, MAIN_TRANSLATIONS['ja']),
  new MainCatalogue(localeInfo('en-XA') as LocaleInfo, undefined),
];

/** Values a sentence may carry, each one that a translation must keep. */
const VALUES = {
  min: 1,
  max: 6,
  count: 7,
  model: 'flux-pro-1.0-fill',
  models: 'Black Forest Labs · flux-kontext-pro',
  service: 'fal.ai',
  asked: 5,
  maskWidth: 31,
  maskHeight: 41,
  width: 640,
  height: 480,
  maskSize: sizeParam(31, 41),
  size: sizeParam(640, 480),
  side: 16,
  bytes: 1024,
};

describe('the edit sentences', () => {
  it.each(Object.keys(editErrors) as (keyof typeof editErrors)[])('%s', (key) => {
    const names = [...editErrors[key].matchAll(/\{(\w+)/g)].map(([, name]) => name ?? '');
    const values = Object.fromEntries(
      Object.entries(VALUES).filter(([name]) => names.includes(name)),
    );
    expect(Object.keys(values).sort()).toEqual([...new Set(names)].sort());
    const said = sentence(key, values);
    expect(sentenceSchema().parse(said)).toEqual(said);
    const english = englishText(said);
    expect(english).not.toMatch(/\{/);
    const kept = Object.values(values)
      .map(String)
      .filter((value) => value.length > 1 && english.includes(value));
    // A size is written by the one formatter (shared/i18n/dimensions.ts) in every language.
    if ('maskSize' in values) expect(english).toContain('31×41');
    for (const catalogue of others) {
      const shown = catalogue.text(said.key, said.params);
      expect(shown).not.toBe(english);
      for (const value of kept) expect(shown).toContain(value);
    }
  });
});
