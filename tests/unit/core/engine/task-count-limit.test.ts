/**
 * The number of tasks one submit to the engine may make is declared once (limits.ts
 * TASKS_PER_ENGINE_SUBMIT): the engine, the CLI's `--count` and its help use it, and the refusal
 * sentence says the figures through placeholders, so no catalogue entry (English or any of the
 * 22 translations) can fall out of step with the limit.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES, PSEUDO_LOCALE, localeInfo } from '../../../../shared/domain/locales';
import { TASKS_PER_ENGINE_SUBMIT } from '../../../../shared/domain/limits';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { mainMessages } from '../../../../shared/i18n/main-messages';
import { MAIN_TRANSLATIONS } from '../../../../shared/i18n/main-translations';
import type { Sentence } from '../../../../shared/i18n/sentence';
import { helpText, parseCommand } from '../../../support/cli-table';
import { UsageError } from '../../../../electron/core/command-line/command-line';
import { EngineInputError } from '../../../../electron/core/engine/engine-types';
import { TARGET, engineHarness } from './engine-harness';

const { min, max } = TASKS_PER_ENGINE_SUBMIT;
const KEY = 'error.library.taskCountRange';
const ENV = { HOME: '/home/u' };

async function refusal(count: number): Promise<Sentence> {
  const h = engineHarness();
  const error = await h.engine.submit({ prompt: 'p' }, TARGET, count).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EngineInputError);
  return (error as EngineInputError).sentence!;
}

describe('the task count of one engine submit', () => {
  it.each([min - 1, max + 1, min + 0.5, Number.NaN])('is refused at %s', async (count) => {
    expect(await refusal(count)).toEqual({
      key: KEY,
      params: { min: String(min), max: String(max) },
    });
  });

  it('is accepted at both ends', async () => {
    const h = engineHarness();
    h.engine.start();
    expect(await h.engine.submit({ prompt: 'p' }, TARGET, min)).toHaveLength(min);
    expect(await h.engine.submit({ prompt: 'p' }, TARGET, max)).toHaveLength(max);
  });

  it('is said from the limit in English and every translation, never written in the text', async () => {
    const said = await refusal(max + 1);
    // Every locale but the pseudo-locale, which is computed from English.
    const tags = LOCALES.map((info) => info.tag).filter((tag) => tag !== PSEUDO_LOCALE);
    expect(tags.slice(1).sort()).toEqual(Object.keys(MAIN_TRANSLATIONS).sort());
    for (const tag of tags) {
      const written = tag === 'en' ? mainMessages[KEY] : String(MAIN_TRANSLATIONS[tag]?.[KEY]);
      expect(written, tag).not.toMatch(/\d/);
      const shown = new MainCatalogue(localeInfo(tag)!, MAIN_TRANSLATIONS[tag]).text(
        said.key,
        said.params,
      );
      expect(shown, tag).toContain(String(max));
      expect(shown, tag).toContain(String(min));
      expect(shown, tag).not.toContain('{');
    }
  });

  it('bounds the CLI’s --count, whose usage line and help say the same figures', () => {
    const argv = (count: number) => [
      'generate',
      '--base-url',
      'https://x',
      '--prompt',
      'p',
      '--count',
      String(count),
    ];
    for (const count of [min, max]) expect(parseCommand(argv(count), ENV)).toMatchObject({ count });
    for (const count of [min - 1, max + 1]) {
      expect(() => parseCommand(argv(count), ENV)).toThrow(UsageError);
      expect(() => parseCommand(argv(count), ENV)).toThrow(`from ${min} to ${max}.`);
    }
    expect(helpText('pictor')).toContain(`--count tasks, ${min} to ${max}`);
  });
});
