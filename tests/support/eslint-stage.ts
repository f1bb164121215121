/**
 * `npm run lint:eslint`: ESLint over the project as `eslint --max-warnings 0 .` lints it (the same
 * config, files and report; it fails on any error or warning), with ESLint's size rules run beside
 * it at STYLE's limits under a name of their own (tests/support/size-offenders.ts): their
 * measures are left out of the report and recorded with their inputs for the size-limits lint test
 * (tests/support/size-offenders-record.ts), which otherwise parses every product file a second time.
 */
import { ESLint } from 'eslint';
import { recordSizeOffenders } from './size-offenders-record';
import { offendersIn, sizeMeasuring, withoutMeasures } from './size-offenders';

const root = process.cwd();
const eslint = new ESLint({ cwd: root, overrideConfig: await sizeMeasuring() });
const linted = await eslint.lintFiles(['.']);
recordSizeOffenders(root, offendersIn(linted, root));

const results = linted.map(withoutMeasures);
const formatter = await eslint.loadFormatter('stylish');
const report = await formatter.format(results);
if (report) process.stdout.write(report.endsWith('\n') ? report : `${report}\n`);
const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);
if (errors === 0 && warnings > 0) {
  process.stdout.write(`ESLint found too many warnings (maximum: 0).\n`);
}
if (errors > 0 || warnings > 0) process.exitCode = 1;
