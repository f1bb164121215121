/**
 * Sentences built from a value that may be empty (a model a request did not name on a service
 * with no default, a field left blank) read right: every message of the main catalogue, in every
 * language, with each of its plain values empty in turn, shows the language's word for none
 * where the value goes, never a gap ("The model  has no option"); and an option on a request that
 * names no model says so, and what to do, instead of naming an empty model.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES, SOURCE_LOCALE, type LocaleInfo } from '../../../shared/domain/locales';
import { checkParams } from '../../../shared/domain/model-params';
import { MainCatalogue } from '../../../shared/i18n/main-catalogue';
import { MAIN_TRANSLATIONS } from '../../../shared/i18n/main-translations';
import { mainMessages, type MainMessageKey } from '../../../shared/i18n/main-messages';
import { emptyValueGaps } from './empty-value-gaps';
import { englishText } from '../../../shared/i18n/sentence';

const LANGUAGES = LOCALES.filter(
  (info) => info.tag === SOURCE_LOCALE || MAIN_TRANSLATIONS[info.tag],
);

describe('a sentence with an empty value', () => {
  it.each(LANGUAGES.map((info) => [info.tag, info] as const))(
    'shows the word for none where the value goes, never a gap: %s',
    (_, info: LocaleInfo) => {
      const catalogue = new MainCatalogue(info, MAIN_TRANSLATIONS[info.tag]);
      const none = catalogue.text('value.none');
      expect(none.trim()).not.toBe('');
      const text = (key: string, values: Record<string, string | number>) =>
        catalogue.text(key as MainMessageKey, values);
      const { gaps, tried } = emptyValueGaps(mainMessages, text, none);
      expect(tried).toBeGreaterThan(300);
      expect(gaps).toEqual([]);
    },
  );

  it('tells a request that names no model to name one, for an option of any model', () => {
    for (const model of ['', '   ']) {
      const checked = checkParams(undefined, model, { num_inference_steps: 20 });
      expect(checked.ok).toBe(false);
      const said = checked.ok ? '' : englishText(checked.problem);
      expect(said).toBe(
        'No model is named, so there is no option “num_inference_steps” to set: name the model whose options these are.',
      );
    }
    const named = checkParams(undefined, 'flux-dev', { steps: 1 });
    expect(named.ok ? '' : englishText(named.problem)).toBe(
      'The model flux-dev has no option “steps”.',
    );
  });
});
