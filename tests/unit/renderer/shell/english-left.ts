/**
 * What the no-English tests look for (no-english-left*.test.tsx): every text the window shows
 * (text, accessible names, tooltips, placeholders, alternative text) looked up in the English
 * catalogues (the window's and main's); one that is English there and is no text of the
 * language's catalogues is a leftover: a key the language lacks, or a sentence the code spelled
 * in English. What is the same in both languages (Pictor, fal.ai, a model's id, the user's
 * prompts) is never a leftover.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { catalogue } from '../../../../renderer/i18n';
import { mainMessages } from '../../../../shared/i18n/main-messages';
import { REPO_ROOT } from '../../../support/source-files';

/** A language's two catalogues (the window's and main's): their texts, and their messages by key. */
export interface Language {
  readonly texts: ReadonlySet<string>;
  readonly messages: Readonly<Record<string, string>>;
}

export function languageTexts(tag: string): Language {
  const messages = languageMessages(tag);
  return { texts: new Set(Object.values(messages)), messages };
}

/** The English catalogues' texts that need no argument (those are shown exactly as written). */
const ENGLISH = new Set(
  [...Object.values(catalogue), ...Object.values(mainMessages)].filter(
    (text) => !text.includes('{'),
  ),
);

const english: Record<string, string> = { ...catalogue, ...mainMessages };

/** Fewest letters of its own (not its arguments') a message with arguments needs to be looked for. */
const LEAST_LETTERS = 6;

/**
 * An ICU message as a regular expression over the text it shows: an argument is any text, a
 * plural or select any one of its branches (`#` a number); with how many letters of its own it
 * always shows. Null for what this reader does not take (quoted braces).
 */
function messagePattern(message: string): { source: string; letters: number } | null {
  if (/'[{}]/.test(message)) return null;
  let source = '';
  let letters = 0;
  let literal = '';
  const flush = () => {
    source += literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    letters += (literal.match(/\p{L}/gu) ?? []).length;
    literal = '';
  };
  for (let at = 0; at < message.length;) {
    const char = message[at]!;
    if (char !== '{') {
      literal += char;
      at += 1;
      continue;
    }
    const end = closing(message, at);
    if (end < 0) return null;
    flush();
    const inner = message.slice(at + 1, end);
    const branches = branchesOf(inner);
    if (branches === null) source += '.+?';
    else {
      const parts = branches.map((branch) => messagePattern(branch.replaceAll('#', '{n}')));
      if (parts.some((part) => part === null)) return null;
      const taken = parts as { source: string; letters: number }[];
      source += `(?:${taken.map((part) => part.source).join('|')})`;
      letters += Math.min(...taken.map((part) => part.letters));
    }
    at = end + 1;
  }
  flush();
  return { source, letters };
}

/** Where the brace opened at `from` closes; -1 when it does not. */
function closing(text: string, from: number): number {
  let depth = 0;
  for (let at = from; at < text.length; at += 1) {
    if (text[at] === '{') depth += 1;
    else if (text[at] === '}' && --depth === 0) return at;
  }
  return -1;
}

/** A plural's or select's branches (their messages); null for a plain argument. */
function branchesOf(inner: string): string[] | null {
  const head = /^\s*\w+\s*,\s*(?:plural|select|selectordinal)\s*,/.exec(inner);
  if (!head) return null;
  const branches: string[] = [];
  let at = head[0].length;
  while (at < inner.length) {
    const open = inner.indexOf('{', at);
    if (open < 0) break;
    const end = closing(inner, open);
    if (end < 0) return null;
    branches.push(inner.slice(open + 1, end));
    at = end + 1;
  }
  return branches;
}

/** A message's pattern as an anchored expression, when it has enough letters of its own. */
function anchored(message: string | undefined): RegExp | null {
  if (message === undefined || !message.includes('{')) return null;
  const pattern = messagePattern(message);
  if (pattern === null) return null;
  return new RegExp(`^${pattern.source}$`, 'su');
}

/** The English messages with arguments, each with its key, as expressions. */
const ENGLISH_PATTERNS = Object.entries(english).flatMap(([key, message]) => {
  const pattern = message.includes('{') ? messagePattern(message) : null;
  if (pattern === null || pattern.letters < LEAST_LETTERS) return [];
  return [{ key, expression: new RegExp(`^${pattern.source}$`, 'su') }];
});

/** A language's messages by key (the window's and main's). */
function languageMessages(tag: string): Record<string, string> {
  const read = (path: string) =>
    JSON.parse(readFileSync(resolve(REPO_ROOT, path), 'utf8')) as Record<string, string>;
  return {
    ...read(`renderer/i18n/locales/${tag}.json`),
    ...read(`shared/i18n/main-locales/${tag}.json`),
  };
}

/**
 * The key of the English message with arguments that `text` is, where the language's own message
 * of that key could not have shown it; null when there is none.
 */
function englishMessageOf(text: string, language: Language): string | null {
  for (const { key, expression } of ENGLISH_PATTERNS) {
    if (!expression.test(text)) continue;
    const own = anchored(language.messages[key]);
    if (own === null || !own.test(text)) return key;
  }
  return null;
}

const ATTRIBUTES = ['aria-label', 'title', 'placeholder', 'alt', 'aria-description'];

/** Every text the document shows or names, each once. */
function shownTexts(): string[] {
  const texts = new Set<string>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent?.closest('script, style, [hidden]')) continue;
    const text = node.textContent?.trim() ?? '';
    if (text !== '') texts.add(text);
  }
  for (const element of document.body.querySelectorAll('*'))
    for (const name of ATTRIBUTES) {
      const value = element.getAttribute(name)?.trim();
      if (value) texts.add(value);
    }
  return [...texts];
}

/**
 * The English the screen shows that the language does not have: a text of the English catalogues
 * as written, or an English message with its arguments filled (named by its key).
 */
export function englishLeft(language: Language, where: string, found: Map<string, string>): void {
  for (const text of shownTexts()) {
    if (found.has(text) || language.texts.has(text)) continue;
    if (ENGLISH.has(text)) found.set(text, where);
    else {
      const key = englishMessageOf(text, language);
      if (key !== null) found.set(text, `${where} (${key})`);
    }
  }
}
