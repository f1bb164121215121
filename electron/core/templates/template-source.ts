import type { PromptTemplate } from '../../../shared/domain/prompt-template';
import type { TemplateStore } from './template-store';

/**
 * Where a template run reads its template and the word lists (the library's template store; an
 * in-memory one in tests). The run names a template by id and reads it here, in main: the page
 * never sends a template's body or the prompts it expands to.
 */
export interface TemplateSource {
  /** The template stored under `id`, or null when there is none. */
  byId(id: string): PromptTemplate | null;
  /** Every word list by name (`__name__` in a template). */
  wordLists(): ReadonlyMap<string, readonly string[]>;
}

/**
 * The library's template store as a run reads it: a template whose row cannot be read (edited by
 * hand) is no template to run.
 */
export function sourceOf(store: Pick<TemplateStore, 'byId' | 'wordLists'>): TemplateSource {
  return {
    byId: (id) => store.byId(id)?.template ?? null,
    wordLists: () => store.wordLists(),
  };
}
