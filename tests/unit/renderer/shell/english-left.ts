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

const ROOT = resolve(import.meta.dirname, '../../../..');

/** Every text of a language's two catalogues (the window's and main's). */
export function languageTexts(tag: string): Set<string> {
  const read = (path: string) =>
    Object.values(JSON.parse(readFileSync(resolve(ROOT, path), 'utf8')) as Record<string, string>);
  return new Set([
    ...read(`renderer/i18n/locales/${tag}.json`),
    ...read(`shared/i18n/main-locales/${tag}.json`),
  ]);
}

/** The English catalogues' texts that need no argument (those are shown exactly as written). */
const ENGLISH = new Set(
  [...Object.values(catalogue), ...Object.values(mainMessages)].filter(
    (text) => !text.includes('{'),
  ),
);

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

/** The English the screen shows that the language does not have. */
export function englishLeft(
  language: Set<string>,
  where: string,
  found: Map<string, string>,
): void {
  for (const text of shownTexts())
    if (ENGLISH.has(text) && !language.has(text) && !found.has(text)) found.set(text, where);
}
