/**
 * `npm test`: every check and suite, in stages. The phases of a stage run side by side, a stage
 * starts when the one before it has passed, and the first failure's exit code ends the run (as
 * `a && b && c` did). Each phase's start and wall time go to test-results/phases.json, which
 * .ci/count-results.mjs prints before CI's closing line.
 *
 * The stages, for a 2-core machine (a quiet fresh clone's figures, CPU = user + sys):
 * 1. The end-to-end journeys beside the static checks and the Electronegativity scan. The
 *    journeys keep about 1.3 cores busy (212 s of CPU in 162 s: their two workers wait on the
 *    app, the demo service and Chromium's frames); the type check (≈ 90 s of CPU), ESLint and
 *    Prettier (≈ 45 s each) and the scan (≈ 4 s) are one core each and run at a lower priority,
 *    so they fill what the journeys leave without slowing them (whose waits have timeouts: at the
 *    same priority, on a machine at load 27, six of the first thirteen journeys ran out of them;
 *    at nice 10, at load 25–31, 45 of 46 passed, the one left failing as it did run alone). One
 *    after the other they took 92 + 4 + 162 s.
 * 2. vitest, which keeps both cores busy by itself. It comes after the type check, which records
 *    the dead exports its lint test reads (tests/support/dead-exports-cache.ts).
 *
 * The app is built once for the run (tests/support/test-build.ts), before the stages, and named
 * in PICTOR_TEST_BUILD_DIR for both users of it: the journeys' global setup and the packaging
 * project's, which each built their own before. Removed when the run ends.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstFailure, runScripts, type Finished, type Phase } from './parallel';
import { acquireTestBuild, listWorkingTreeBuild } from './test-build';

const STAGES: readonly (readonly Phase[])[] = [
  [
    { script: 'test:e2e', live: true },
    { script: 'typecheck', yields: true },
    { script: 'lint:eslint', yields: true },
    { script: 'lint:prettier', yields: true },
    { script: 'security', yields: true },
  ],
  [{ script: 'test:vitest', live: true }],
];

const RESULTS = join(
  resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..'),
  'test-results',
);

/** The record .ci/count-results.mjs reads: each phase's start and wall time, in seconds. */
function record(finished: readonly Finished[]): void {
  const tenths = (ms: number): number => Math.round(ms / 100) / 10;
  const phases = finished.map((phase) => ({
    phase: phase.script,
    startedSeconds: tenths(phase.started),
    seconds: tenths(phase.ended - phase.started),
    code: phase.code,
  }));
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'phases.json'), `${JSON.stringify({ phases }, null, 2)}\n`);
}

async function runStages(origin: number, finished: Finished[]): Promise<number> {
  for (const stage of STAGES) {
    const results = await runScripts(stage, origin);
    finished.push(...results);
    record(finished);
    const code = firstFailure(results);
    if (code !== 0) return code;
  }
  return 0;
}

/**
 * The run's build; throws when it changed the working tree's own dist/ or dist-electron/ (the
 * packaging project's setup lists them only after it, so the check for this build is here).
 */
async function buildLeavingTheWorkingTree(): ReturnType<typeof acquireTestBuild> {
  const before = JSON.stringify(listWorkingTreeBuild());
  const acquired = await acquireTestBuild();
  if (JSON.stringify(listWorkingTreeBuild()) !== before) {
    await acquired.release();
    throw new Error('The test build changed the working tree’s dist/ or dist-electron/.');
  }
  return acquired;
}

async function main(): Promise<number> {
  const origin = performance.now();
  const finished: Finished[] = [];
  let acquired: Awaited<ReturnType<typeof acquireTestBuild>>;
  try {
    acquired = await buildLeavingTheWorkingTree();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    finished.push({ script: 'build', code: 1, started: 0, ended: performance.now() - origin });
    record(finished);
    return 1;
  }
  console.log(acquired.line);
  finished.push({ script: 'build', code: 0, started: 0, ended: performance.now() - origin });
  try {
    return await runStages(origin, finished);
  } finally {
    await acquired.release();
  }
}

process.exitCode = await main();
