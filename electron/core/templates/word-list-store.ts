/**
 * The library's word lists (shared/domain/word-lists.ts for the rules), kept in the history's
 * `word_lists` table: checked here, written in one transaction with the check against the other
 * lists, and checked again when read (a list edited by hand that breaks the rules is not used).
 */
import { z } from 'zod';
import { checkWordList, MAX_WORD_LISTS, type WordList } from '../../../shared/domain/word-lists';
import { foldName } from '../../../shared/domain/triage';
import { sentence } from '../../../shared/i18n/sentence';
import type { TemplateRows, TemplateWrite, WordListRow } from '../history';
import { TemplateStoreError } from './template-error';

const storedWords = z.array(z.string());

/** A stored row as a list, or null when it breaks the rules. */
function listOf(row: WordListRow): WordList | null {
  let raw: unknown;
  try {
    raw = JSON.parse(row.words);
  } catch {
    return null;
  }
  const words = storedWords.safeParse(raw);
  if (!words.success) return null;
  const checked = checkWordList(row.name, words.data);
  return checked.ok && checked.key === row.key ? checked.list : null;
}

export class WordLists {
  constructor(
    private readonly rows: TemplateRows,
    private readonly now: () => number,
  ) {}

  /** Every list that keeps the rules, by name. */
  list(): WordList[] {
    return this.rows.wordLists().flatMap((row) => listOf(row) ?? []);
  }

  /**
   * Replaces the list named `name` (any case: it takes the name as now written) or makes it.
   * @throws TemplateStoreError for a bad name or word, too many words or too many lists.
   */
  save(name: string, words: readonly string[]): WordList {
    const checked = checkWordList(name, words);
    if (!checked.ok) throw new TemplateStoreError(checked.problem);
    this.rows.change((write) => this.put(write, checked.list, checked.key));
    return checked.list;
  }

  /** Inside a write: puts `list`, refused past the limit of lists. */
  put(write: TemplateWrite, list: WordList, key = foldName(list.name)): void {
    const rows = write.wordLists();
    if (!rows.some((row) => row.key === key) && rows.length >= MAX_WORD_LISTS) {
      const max = MAX_WORD_LISTS;
      throw new TemplateStoreError(sentence('error.templateStore.tooManyLists', { max }));
    }
    const updatedAt = this.now();
    write.putList({ key, name: list.name, words: JSON.stringify(list.words), updatedAt });
  }

  /** Deletes the list named `name` (any case). @throws TemplateStoreError when there is none. */
  remove(name: string): void {
    const key = foldName(name.trim());
    this.rows.change((write) => {
      if (!write.wordLists().some((row) => row.key === key)) {
        throw new TemplateStoreError(
          sentence('error.templateStore.listNotFound', { name }),
          'not_found',
        );
      }
      write.removeList(key);
    });
  }
}
