/**
 * Product files over STYLE's size limits (eslint.config.js `sizeLimits`), measured with ESLint's
 * own rules at those limits, ignoring the per-file ceilings: for each file and rule, the largest
 * measure it reports (the file's lines, its longest function, most parameters, deepest nesting).
 *
 * The rules run under a plugin of their own (`size/max-lines`, …): ESLint's very rules, set at
 * STYLE's limits beside the config's own `max-lines` at each offender's ceiling, so that one lint
 * of the tree gives both what the lint stage reports and the measures (tests/support/
 * eslint-stage.ts records them for the lint test: size-offenders-record.ts).
 */
import { ESLint, type Linter } from 'eslint';
import { builtinRules } from 'eslint/use-at-your-own-risk';

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

/** The plugin the measuring rules run under: `size/max-lines` is ESLint's `max-lines`. */
const PLUGIN = 'size';

/**
 * The config that adds the measuring rules to a lint: ESLint's size rules, renamed into
 * {@link PLUGIN}, at STYLE's limits on product code whatever the file's ceiling.
 */
export async function sizeMeasuring(): Promise<Linter.Config> {
  const { PRODUCT_CODE, sizeLimits, sizeRules } = await sizeConfig();
  const rules = Object.fromEntries(
    Object.keys(sizeLimits).map((rule) => [rule, builtinRules.get(rule)!]),
  );
  return {
    files: PRODUCT_CODE,
    plugins: { [PLUGIN]: { rules } },
    rules: Object.fromEntries(
      Object.entries(sizeRules(sizeLimits)).map(([rule, entry]) => [`${PLUGIN}/${rule}`, entry]),
    ),
  };
}

/** Whether a message is one of the measuring rules' (the lint stage leaves them out). */
export function isMeasure(message: Linter.LintMessage): boolean {
  return message.ruleId?.startsWith(`${PLUGIN}/`) === true;
}

/**
 * `result` as a lint without the measuring rules gives it: their messages gone and the counts
 * (what the formatter prints, what fails the lint) counted without them.
 */
export function withoutMeasures(result: ESLint.LintResult): ESLint.LintResult {
  const messages = result.messages.filter((message) => !isMeasure(message));
  const count = (severity: number, fixable = false): number =>
    messages.filter((m) => m.severity === severity && (!fixable || m.fix !== undefined)).length;
  return {
    ...result,
    messages,
    suppressedMessages: result.suppressedMessages.filter((message) => !isMeasure(message)),
    errorCount: count(2),
    fatalErrorCount: messages.filter((message) => message.fatal === true).length,
    warningCount: count(1),
    fixableErrorCount: count(2, true),
    fixableWarningCount: count(1, true),
  };
}

/** ESLint's messages for these rules all carry the measure as "(N). Maximum allowed is M." */
const MEASURE = /\((\d+)\)\. Maximum allowed is \d+/;

/** The offenders the measuring rules found in `results`, files relative to `root`, sorted. */
export function offendersIn(results: readonly ESLint.LintResult[], root: string): SizeOffenders {
  const found: SizeOffenders = {};
  for (const result of results) {
    const file = result.filePath
      .slice(root.length)
      .replace(/^[\\/]/, '')
      .split('\\')
      .join('/');
    for (const message of result.messages.filter(isMeasure)) {
      const measure = MEASURE.exec(message.message);
      if (!measure) throw new Error(`${file}: unexpected ${message.ruleId}: ${message.message}`);
      const rule = message.ruleId!.slice(PLUGIN.length + 1) as SizeRule;
      const entry = (found[file] ??= {});
      entry[rule] = Math.max(entry[rule] ?? 0, Number(measure[1]));
    }
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
}

/** The offenders of the project at `root`, measured by a lint of their own. */
export async function measureSizeOffenders(root: string): Promise<SizeOffenders> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: await sizeMeasuring(),
    ruleFilter: ({ ruleId }) => ruleId.startsWith(`${PLUGIN}/`),
  });
  const results = await eslint.lintFiles(['electron', 'renderer', 'shared']);
  const others = results.flatMap((result) => result.messages.filter((m) => !isMeasure(m)));
  if (others.length > 0) throw new Error(`unexpected: ${JSON.stringify(others[0])}`);
  return offendersIn(results, root);
}
