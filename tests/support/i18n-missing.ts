/**
 * A translator's worklist: `npx tsx tests/support/i18n-missing.ts <tag>` prints, as JSON, the
 * English messages the locale's file lacks (key → English) and the keys it has that English no
 * longer has. `--all` prints a summary line per locale.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogue } from '../../renderer/i18n';
import { LOCALES, PSEUDO_LOCALE, SOURCE_LOCALE } from '../../shared/domain/locales';

const DIR = resolve(import.meta.dirname, '../../renderer/i18n/locales');

function status(tag: string): { missing: Record<string, string>; extra: string[] } {
  const translation = JSON.parse(readFileSync(join(DIR, `${tag}.json`), 'utf8')) as Record<
    string,
    string
  >;
  const missing = Object.fromEntries(
    Object.entries(catalogue).filter(([key]) => !Object.hasOwn(translation, key)),
  );
  const extra = Object.keys(translation).filter((key) => !Object.hasOwn(catalogue, key));
  return { missing, extra };
}

const [tag] = process.argv.slice(2);
if (!tag || tag === '--all') {
  for (const info of LOCALES) {
    if (info.tag === SOURCE_LOCALE || info.tag === PSEUDO_LOCALE) continue;
    const { missing, extra } = status(info.tag);
    console.log(`${info.tag}: ${Object.keys(missing).length} missing, ${extra.length} extra`);
  }
} else {
  console.log(JSON.stringify(status(tag), null, 2));
}
