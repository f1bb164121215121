/**
 * The window's words in a language, read from its catalogue (English: renderer/i18n/en; the others:
 * renderer/i18n/locales), so a journey finds things on a page in that language as a user of it
 * reads them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { common } from '../../../../renderer/i18n/en/common';
import { compose } from '../../../../renderer/i18n/en/compose';
import { costs } from '../../../../renderer/i18n/en/costs';
import { gallery } from '../../../../renderer/i18n/en/gallery';
import { settings } from '../../../../renderer/i18n/en/settings';
import { shell } from '../../../../renderer/i18n/en/shell';
import { tasks } from '../../../../renderer/i18n/en/tasks';
import { triage } from '../../../../renderer/i18n/en/triage';
import { REPO_ROOT } from '../../harness/repo-paths';

const ENGLISH: Readonly<Record<string, string>> = {
  ...common,
  ...compose,
  ...costs,
  ...gallery,
  ...settings,
  ...shell,
  ...tasks,
  ...triage,
};

const loaded = new Map<string, Readonly<Record<string, string>>>([['en', ENGLISH]]);

/** The message `key` in the language `tag` (`en`, `de`, `ar`…); throws when it has none. */
export function uiText(tag: string, key: string): string {
  let messages = loaded.get(tag);
  if (!messages) {
    const path = join(REPO_ROOT, 'renderer', 'i18n', 'locales', `${tag}.json`);
    messages = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
    loaded.set(tag, messages);
  }
  const text = messages[key];
  if (!text) throw new Error(`${key} is not translated in ${tag}`);
  return text;
}
