/**
 * The library's templates as the fronts list them (electron/core/templates/template-store.ts): a
 * stored template is either read and checked, or named with the sentence saying why it cannot be
 * read (a row someone edited by hand), never trusted. At most {@link MAX_LIBRARY_TEMPLATES}.
 */
import type { Sentence } from '../i18n/sentence';
import type { PromptTemplate } from './prompt-template';

export const MAX_LIBRARY_TEMPLATES = 10_000;

export type StoredTemplate =
  | { readonly id: string; readonly template: PromptTemplate }
  | {
      readonly id: string;
      /** The name as the row holds it (shown, never trusted), at most 100 characters. */
      readonly name: string;
      readonly template: null;
      readonly problem: Sentence;
    };
