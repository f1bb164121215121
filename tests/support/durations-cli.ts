/**
 * `tsx tests/support/durations-cli.ts report [<vitest.json>] [<baseline.json>]` prints the ten
 * slowest test files of a run beside the committed baseline (.ci/run does, after the tests);
 * `tsx tests/support/durations-cli.ts write <baseline.json> <vitest.json>...` writes the baseline
 * from real runs' JSON reports (see tests/support/durations.ts).
 */
import { writeFileSync } from 'node:fs';
import { baselineText, slowestReport } from './durations';

const REPORT = 'test-results/vitest.json';
const BASELINE = 'tests/durations-baseline.json';
const USAGE =
  'usage: tsx tests/support/durations-cli.ts report [<vitest.json>] [<baseline.json>]\n' +
  '       tsx tests/support/durations-cli.ts write <baseline.json> <vitest.json>...';

const [command, ...args] = process.argv.slice(2);
const root = process.cwd();
try {
  if (command === 'report') {
    const lines = slowestReport(args[0] ?? REPORT, args[1] ?? BASELINE, root);
    process.stdout.write(`${lines.join('\n')}\n`);
  } else if (command === 'write' && args.length >= 2) {
    const [baseline = BASELINE, ...reports] = args;
    writeFileSync(baseline, baselineText(reports, root));
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (error) {
  console.error(`durations: ${(error as Error).message}`);
  process.exitCode = 1;
}
