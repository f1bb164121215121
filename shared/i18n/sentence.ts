/**
 * A sentence of the main catalogue as errors carry it: the message key and the values of its
 * placeholders, never the words. An error is made with one (`new ServiceError({ sentence: … })`,
 * `new UserFacingError(sentence('error.…', { … }))`); its `message` is the English text, for logs
 * and the CLI, and the sentence goes with it over IPC and into the history, so the window shows it
 * in the language chosen when it is read, not the one it was raised in.
 *
 * What is read back (a history row, a gallery sidecar, an IPC error) passes
 * {@link sentenceSchema}: a known key and a few bounded values. A value is formatted as text,
 * never parsed as a message, so server-sent text in one cannot change the sentence around it.
 */
import { z } from 'zod';
import { localeInfo, SOURCE_LOCALE, type LocaleInfo } from '../domain/locales';
import type { CostUnit } from '../domain/task-cost';
import { lazySchema } from '../domain/lazy-schema';
import { MAX_MESSAGE_CHARS } from '../domain/limits';
import { shownValue } from '../text/shown-value';
import { MainCatalogue, type MainParams } from './main-catalogue';
import { mainMessages, type MainMessageKey } from './main-messages';

export interface Sentence {
  readonly key: MainMessageKey;
  readonly params?: MainParams;
}

/** A sentence of the catalogue; `params` fill its placeholders. */
export function sentence(key: MainMessageKey, params?: MainParams): Sentence {
  return params === undefined ? { key } : { key, params };
}

/** More than any sentence has; a longer list is damage. */
const MAX_PARAMS = 12;

/** Built on first use (shared/domain/lazy-schema.ts): a command reading no sentence builds none. */
export const sentenceSchema = lazySchema(
  () =>
    z.object({
      key: z
        .string()
        .max(120)
        .refine((key): key is MainMessageKey => Object.hasOwn(mainMessages, key), 'unknown key'),
      params: z
        .record(
          z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/),
          z.union([z.string().max(MAX_MESSAGE_CHARS), z.number().finite()]),
        )
        .refine((params) => Object.keys(params).length <= MAX_PARAMS, 'too many values')
        .optional(),
    }) as z.ZodType<Sentence>,
);

let english: MainCatalogue | null = null;

/** The sentence in English (an error's `message`, the log's and the CLI's words). */
export function englishText(said: Sentence): string {
  english ??= new MainCatalogue(localeInfo(SOURCE_LOCALE) as LocaleInfo, undefined);
  return english.text(said.key, said.params);
}

/** An amount as English writes money (`$0.25`, `3 credits`): the CLI's lines, like its sentences. */
export function englishMoney(micros: number, unit: CostUnit): string {
  english ??= new MainCatalogue(localeInfo(SOURCE_LOCALE) as LocaleInfo, undefined);
  return english.money(micros, unit);
}

/**
 * What a stored or sent error reads as in `catalogue`'s language: its sentence there when it has
 * one, else its `message` as it was stored (records written before sentences existed, a
 * sentence this version does not know, a service's own words), shown as a value is
 * (shared/text/shown-value.ts).
 */
export function sentenceText(
  catalogue: MainCatalogue,
  said: { readonly message: string; readonly sentence?: Sentence | undefined },
): string {
  return said.sentence
    ? catalogue.text(said.sentence.key, said.sentence.params)
    : shownValue(said.message);
}
