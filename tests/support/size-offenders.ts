/**
 * Product files over STYLE's size limits (eslint.config.js `sizeLimits`), measured with ESLint's
 * own rules at those limits, ignoring the per-file ceilings: for each file and rule, the largest
 * measure it reports (the file's lines, its longest function, most parameters, deepest nesting).
 */
import { ESLint, type Linter } from 'eslint';

export type SizeRule = 'max-lines' | 'max-lines-per-function' | 'max-params' | 'max-depth';
export type SizeOffenders = Record<string, Partial<Record<SizeRule, number>>>;

/** What eslint.config.js exports about sizes (a JavaScript file, so typed here). */
export interface SizeConfig {
  readonly PRODUCT_CODE: string[];
  readonly sizeLimits: Record<SizeRule, number>;
  readonly sizeOffenders: SizeOffenders;
  readonly sizeRules: (limits: Partial<Record<SizeRule, number>>) => Linter.RulesRecord;
}

/** The project's eslint.config.js, loaded by URL: TypeScript has no types for it. */
export async function sizeConfig(): Promise<SizeConfig> {
  return (await import(new URL('../../eslint.config.js', import.meta.url).href)) as SizeConfig;
}

/** ESLint's messages for these rules all carry the measure as "(N). Maximum allowed is M." */
const MEASURE = /\((\d+)\)\. Maximum allowed is \d+/;

/** The offenders of the project at `root`, files relative to it with `/`, sorted by file. */
export async function measureSizeOffenders(root: string): Promise<SizeOffenders> {
  const { PRODUCT_CODE, sizeLimits, sizeRules } = await sizeConfig();
  const rules = new Set<string>(Object.keys(sizeLimits));
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { files: PRODUCT_CODE, rules: sizeRules(sizeLimits) },
    ruleFilter: ({ ruleId }) => rules.has(ruleId),
  });
  const results = await eslint.lintFiles(['electron', 'renderer', 'shared']);
  const found: SizeOffenders = {};
  for (const result of results) {
    const file = result.filePath
      .slice(root.length)
      .replace(/^[\\/]/, '')
      .split('\\')
      .join('/');
    for (const message of result.messages) {
      const measure = MEASURE.exec(message.message);
      if (!message.ruleId || !rules.has(message.ruleId) || !measure) {
        throw new Error(`${file}: unexpected ${message.ruleId}: ${message.message}`);
      }
      const rule = message.ruleId as SizeRule;
      const entry = (found[file] ??= {});
      entry[rule] = Math.max(entry[rule] ?? 0, Number(measure[1]));
    }
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
}
