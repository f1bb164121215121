/**
 * CI's closing lines (.ci/count-results.mjs): how long each of npm test's phases took, from the
 * record tests/support/test-phases.ts writes, then `tests: N passed, M failed, K skipped`, last.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';
import { REPO_ROOT } from '../../support/source-files';

const SCRIPT = join(REPO_ROOT, '.ci/count-results.mjs');
const root = tempFolderSync('count-results');
afterAll(() => removeFolderSync(root));

/** The script's output lines in a folder holding these test-results files. */
function closingLines(name: string, files: Record<string, unknown>, status: number): string[] {
  const results = join(root, name, 'test-results');
  mkdirSync(results, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    writeFileSync(join(results, file), JSON.stringify(content));
  }
  const output = execFileSync(process.execPath, [SCRIPT, String(status)], {
    cwd: join(root, name),
    encoding: 'utf8',
  });
  return output.trimEnd().split('\n');
}

describe('CI’s closing lines', () => {
  it('say how long each phase took, then end with the counts of vitest and Playwright', () => {
    const lines = closingLines(
      'passed',
      {
        'vitest.json': { numPassedTests: 5, numFailedTests: 0, numPendingTests: 1 },
        'playwright.json': { stats: { expected: 2, unexpected: 0, flaky: 0, skipped: 0 } },
        'phases.json': {
          phases: [
            { phase: 'build', startedSeconds: 0, seconds: 3.9, code: 0 },
            { phase: 'typecheck', startedSeconds: 3.9, seconds: 81.25, code: 0 },
            { phase: 'test:vitest', startedSeconds: 170.4, seconds: 700, code: 0 },
          ],
        },
      },
      0,
    );
    expect(lines).toEqual([
      'ci: phase npm test › build: 3.9 s (from 0.0 s of npm test)',
      'ci: phase npm test › typecheck: 81.3 s (from 3.9 s of npm test)',
      'ci: phase npm test › test:vitest: 700.0 s (from 170.4 s of npm test)',
      'tests: 7 passed, 0 failed, 1 skipped',
    ]);
  });

  it('name a failed phase, and count a failure without a failed test as one', () => {
    const lines = closingLines(
      'failed',
      {
        'phases.json': {
          phases: [{ phase: 'lint:eslint', startedSeconds: 4, seconds: 50, code: 2 }],
        },
      },
      2,
    );
    expect(lines).toEqual([
      'ci: phase npm test › lint:eslint: 50.0 s (from 4.0 s of npm test, failed (exit 2))',
      'tests: 0 passed, 1 failed, 0 skipped',
    ]);
  });

  it('end with the counts alone when npm test wrote no record of its phases', () => {
    expect(closingLines('unrecorded', {}, 1)).toEqual(['tests: 0 passed, 1 failed, 0 skipped']);
  });
});
