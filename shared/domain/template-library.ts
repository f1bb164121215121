/**
 * The library's templates as the fronts list them (electron/core/templates/template-store.ts): a
 * stored template is either read and checked, or named with the sentence saying why it cannot be
 * read (a row someone edited by hand), never trusted. At most {@link MAX_LIBRARY_TEMPLATES}.
 */
import { z } from 'zod';
import { sentenceSchema } from '../i18n/sentence';
import { MAX_TEMPLATE_NAME_CHARS, promptTemplateSchema } from './prompt-template';
import { MAX_WORD_LISTS, wordListSchema } from './word-lists';

export const MAX_LIBRARY_TEMPLATES = 10_000;

export const storedTemplateSchema = z.union([
  z.object({ id: z.string().max(100), template: promptTemplateSchema }),
  z.object({
    id: z.string().max(100),
    /** The name as the row holds it (shown, never trusted). */
    name: z.string().max(4 * MAX_TEMPLATE_NAME_CHARS),
    template: z.null(),
    problem: sentenceSchema,
  }),
]);
export type StoredTemplate = z.infer<typeof storedTemplateSchema>;

/** Every template and word list of a library. */
export const templateLibrarySchema = z.object({
  templates: z.array(storedTemplateSchema).max(MAX_LIBRARY_TEMPLATES),
  wordLists: z.array(wordListSchema).max(MAX_WORD_LISTS),
});
export type TemplateLibrary = z.infer<typeof templateLibrarySchema>;
