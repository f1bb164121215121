/**
 * A translator's worklist: `npx tsx tests/support/i18n-missing.ts <tag>` prints, as JSON, the
 * English messages the locale's file lacks (key → English) and the keys it has that English no
 * longer has. `--all` prints a summary line per locale.
 *
 * `--main` before the tag works on the main process's catalogue (shared/i18n/main-locales)
 * instead of the window's. `--merge <tag> <file.json>` adds the translations in `file.json` to the
 * locale's file, keeping what is there, dropping keys English lacks and writing the keys in
 * English's order (the main catalogue's test checks that order).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogue } from '../../renderer/i18n';
import { LOCALES, PSEUDO_LOCALE, SOURCE_LOCALE } from '../../shared/domain/locales';
import { mainMessages } from '../../shared/i18n/main-messages';

const args = process.argv.slice(2);
const main = args[0] === '--main';
if (main) args.shift();
const DIR = resolve(
  import.meta.dirname,
  main ? '../../shared/i18n/main-locales' : '../../renderer/i18n/locales',
);
const english: Readonly<Record<string, string>> = main ? mainMessages : catalogue;

function read(tag: string): Record<string, string> {
  return JSON.parse(readFileSync(join(DIR, `${tag}.json`), 'utf8')) as Record<string, string>;
}

function status(tag: string): { missing: Record<string, string>; extra: string[] } {
  const translation = read(tag);
  const missing = Object.fromEntries(
    Object.entries(english).filter(([key]) => !Object.hasOwn(translation, key)),
  );
  const extra = Object.keys(translation).filter((key) => !Object.hasOwn(english, key));
  return { missing, extra };
}

function merge(tag: string, file: string): void {
  const merged = { ...read(tag), ...(JSON.parse(readFileSync(file, 'utf8')) as object) } as Record<
    string,
    string
  >;
  const ordered: Record<string, string> = {};
  for (const key of Object.keys(english)) {
    if (typeof merged[key] === 'string') ordered[key] = merged[key];
  }
  writeFileSync(join(DIR, `${tag}.json`), `${JSON.stringify(ordered, null, 2)}\n`);
  const missing = Object.keys(english).length - Object.keys(ordered).length;
  console.log(`${tag}: ${Object.keys(ordered).length} messages, ${missing} missing`);
}

const [first, second, third] = args;
if (first === '--merge' && second && third) {
  merge(second, third);
} else if (!first || first === '--all') {
  for (const info of LOCALES) {
    if (info.tag === SOURCE_LOCALE || info.tag === PSEUDO_LOCALE) continue;
    const { missing, extra } = status(info.tag);
    console.log(`${info.tag}: ${Object.keys(missing).length} missing, ${extra.length} extra`);
  }
} else {
  console.log(JSON.stringify(status(first), null, 2));
}
