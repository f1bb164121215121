// Prints how long each of npm test's phases took (test-results/phases.json, written by
// tests/support/test-phases.ts), then adds up the vitest and Playwright JSON reports into one
// closing line (skips counted apart). A failing typecheck or lint (npm test exited non-zero with no
// failed test) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let skipped = 0;

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

const vitest = read('test-results/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
}
const playwright = read('test-results/playwright.json');
if (playwright?.stats) {
  passed += playwright.stats.expected ?? 0;
  failed += (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0);
  skipped += playwright.stats.skipped ?? 0;
}
for (const phase of read('test-results/phases.json')?.phases ?? []) {
  const verdict = phase.code === 0 ? '' : `, failed (exit ${phase.code})`;
  const from = `from ${phase.startedSeconds.toFixed(1)} s of npm test`;
  console.log(
    `ci: phase npm test › ${phase.phase}: ${phase.seconds.toFixed(1)} s (${from}${verdict})`,
  );
}
if (exitStatus !== 0 && failed === 0) failed = 1;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
