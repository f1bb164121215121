/**
 * The user's word lists: what a template's `__name__` draws one word from
 * (shared/domain/template-language.ts). Checked here for every front: a name as the language
 * reads it (letters, digits, `-` and single `_` inside, at most 64), unique whatever its case
 * ({@link foldName}); at most {@link MAX_WORDS_PER_LIST} words, each 1–{@link MAX_WORD_CHARS}
 * characters after trimming, with no control, line-separator or bidirectional-formatting
 * character (a word lands in a prompt the user cannot see the whole of); at most
 * {@link MAX_WORD_LISTS} lists in a library. Empty lines are dropped, not refused.
 */
import { z } from 'zod';
import { sentence, type Sentence } from '../i18n/sentence';
import {
  anyOf,
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
} from '../text/control-characters';
import { codePoints } from './prompt-template';
import { isListName } from './template-language';
import { foldName } from './triage';
import { lazySchema } from './lazy-schema';

export const MAX_WORDS_PER_LIST = 1_000;
const MAX_WORD_CHARS = 200;
export const MAX_WORD_LISTS = 500;
/** A list's name, as the template language reads it. */
const MAX_LIST_NAME_CHARS = 64;

const FORBIDDEN = anyOf([CONTROL_CHARACTERS, LINE_SEPARATORS, BIDI_CONTROLS, '\\ufeff'], 'u');

/** A word list as the library keeps it; built on first use (lazy-schema.ts). */
export const wordListSchema = lazySchema(() =>
  z.object({
    name: z.string().max(MAX_LIST_NAME_CHARS),
    words: z.array(z.string().max(2 * MAX_WORD_CHARS)).max(MAX_WORDS_PER_LIST),
  }),
);
export type WordList = z.infer<ReturnType<typeof wordListSchema>>;

export type WordListCheck =
  | { readonly ok: true; readonly list: WordList; readonly key: string }
  | { readonly ok: false; readonly problem: Sentence };

function characterName(found: string): string {
  const code = found.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function wordProblem(word: string, line: number): Sentence | null {
  if (codePoints(word) > MAX_WORD_CHARS) {
    return sentence('error.templateStore.wordTooLong', { max: MAX_WORD_CHARS, line });
  }
  const found = FORBIDDEN.exec(word)?.[0];
  if (found === undefined) return null;
  return sentence('error.templateStore.wordCharacter', { character: characterName(found), line });
}

/**
 * `name` and `words` checked as a word list: the words trimmed (NFC), empty ones dropped.
 * A refused word is named by its place in `words` (from 1: a file's line).
 */
export function checkWordList(name: string, words: readonly string[]): WordListCheck {
  const trimmed = name.trim();
  if (!isListName(trimmed)) {
    return { ok: false, problem: sentence('error.templateStore.listName', { name: trimmed }) };
  }
  if (words.length > MAX_WORDS_PER_LIST * 4) return tooMany();
  const kept: string[] = [];
  for (const [index, raw] of words.entries()) {
    const word = raw.normalize('NFC').trim();
    const problem = wordProblem(word, index + 1);
    if (problem) return { ok: false, problem };
    if (word !== '') kept.push(word);
  }
  if (kept.length > MAX_WORDS_PER_LIST) return tooMany();
  return { ok: true, list: { name: trimmed, words: kept }, key: foldName(trimmed) };
}

function tooMany(): WordListCheck {
  return {
    ok: false,
    problem: sentence('error.templateStore.listTooLong', { max: MAX_WORDS_PER_LIST }),
  };
}
