/**
 * `npm test`: every check and suite, in stages. The phases of a stage run side by side, a stage
 * starts when the one before it has passed, and the first failure's exit code ends the run (as
 * `a && b && c` did). Each phase's start and wall time go to test-results/phases.json, which
 * .ci/count-results.mjs prints before CI's closing line.
 *
 * The stages, for a 2-core machine (quiet fresh clones' figures):
 * 1. The static checks side by side: the type check (≈ 90 s of CPU, one core), ESLint and
 *    Prettier (≈ 45 s and ≈ 30 s, together the other core) and the Electronegativity scan: 92 s.
 *    Prettier reads TypeScript with its `babel-ts` parser (.prettierrc.json), not `typescript`:
 *    the same printer and the same verdicts on this tree, a third less CPU (the whole check
 *    47.3 s and 30.0 s of CPU, one run each at load 2 to 24 and 42).
 * 2. The end-to-end journeys, alone: 162 s. They keep about 1.3 cores busy, and their waits have
 *    timeouts. Beside the static checks (at nice 10, so that the checks took only what the journeys
 *    left) the stage took longer than the two one after the other: at 0eaf5e48, quiet, the
 *    journeys took 259 s instead of 162 and the checks 291 s (92 + 162 = 254 s apart).
 * 3. vitest, which keeps both cores busy by itself. It comes after the type check, which records
 *    the dead exports its lint test reads (tests/support/dead-exports-cache.ts).
 *
 * Those figures are older and from another host. A quiet fresh clone at ed7e0881 (.ci/run's
 * phase lines, an AMD EPYC with 2 cores): static checks 99 s, journeys 326 s, vitest 1,093 s,
 * npm test 1,528 s in all, past the 15 minutes the suite is meant to take; at 66979682, 91 s,
 * 298 s, 1,040 s and 1,437 s. More workers do not shorten it there: the journeys at 4 took 319 s
 * against 305 s at 2, both cores 99 % busy; the hardening and packaging projects 433 s against
 * 369 s (89 % busy at 2); only the integration projects gained, 262 s against 292 s (68 % busy).
 *
 * The app is built once for the run (tests/support/test-build.ts), before the stages, and named
 * in PICTOR_TEST_BUILD_DIR for both users of it: the journeys' global setup and the packaging
 * project's, which each built their own before. The Node programs the tests start (the CLI, the
 * demo service, the crash tests' workers: tests/support/node-entries.ts) are bundled beside it,
 * once, and named in PICTOR_TEST_NODE_ENTRIES: the journeys' global setup bundled them, and then
 * each of the four Vitest projects that start them, one after another before vitest's first test.
 * Both are removed when the run ends.
 *
 * The whole run has a temporary folder of its own (TMPDIR, tests/support/run-temp.ts): when it
 * has ended, anything left in it but the tools' own files (a folder a test made and did not
 * remove, a file of any name) fails it, named ("temp folders" in phases.json), and the folder
 * goes with what the tools left in it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireTestEntries } from './node-entries';
import { firstFailure, runScripts, type Finished, type Phase } from './parallel';
import { runTemp, type RunTemp } from './run-temp';
import { acquireTestBuild, listWorkingTreeBuild } from './test-build';

const STAGES: readonly (readonly Phase[])[] = [
  [
    { script: 'typecheck' },
    { script: 'lint:eslint' },
    { script: 'lint:prettier' },
    { script: 'security' },
  ],
  [{ script: 'test:e2e', live: true }],
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

async function runAll(origin: number, finished: Finished[]): Promise<number> {
  const [built, entries] = await Promise.allSettled([
    buildLeavingTheWorkingTree(),
    acquireTestEntries(),
  ]);
  const releaseAll = async (): Promise<void> => {
    if (built.status === 'fulfilled') await built.value.release();
    if (entries.status === 'fulfilled') await entries.value.release();
  };
  if (built.status === 'rejected' || entries.status === 'rejected') {
    for (const result of [built, entries]) {
      if (result.status !== 'rejected') continue;
      const error: unknown = result.reason;
      console.error(error instanceof Error ? error.message : String(error));
    }
    await releaseAll();
    finished.push({ script: 'build', code: 1, started: 0, ended: performance.now() - origin });
    record(finished);
    return 1;
  }
  console.log(built.value.line);
  finished.push({ script: 'build', code: 0, started: 0, ended: performance.now() - origin });
  try {
    return await runStages(origin, finished);
  } finally {
    await releaseAll();
  }
}

/**
 * What the run's tests left in its temporary folder, judged once everything of the run has ended
 * (its build and bundles released): a phase of its own, failed by anything left but the tools' files.
 */
async function judgeLeftovers(temp: RunTemp, origin: number): Promise<Finished> {
  const started = performance.now() - origin;
  const left = await temp.end();
  if (left.tools.length > 0) {
    console.log(`\nThe tools' files left in the run's temporary folder: ${left.tools.join(', ')}`);
  }
  if (left.leftovers.length > 0) {
    console.error(
      `\n> temp folders: failed: the run left ${String(left.leftovers.length)} file(s) or ` +
        `folder(s) of no tool's in its temporary folder: ${left.leftovers.join(', ')}`,
    );
  }
  const code = left.leftovers.length === 0 ? 0 : 1;
  return { script: 'temp folders', code, started, ended: performance.now() - origin };
}

async function main(): Promise<number> {
  const origin = performance.now();
  const finished: Finished[] = [];
  const temp = await runTemp();
  let code: number;
  try {
    code = await runAll(origin, finished);
  } catch (error) {
    await temp.end();
    throw error;
  }
  const leftovers = await judgeLeftovers(temp, origin);
  finished.push(leftovers);
  record(finished);
  return code !== 0 ? code : leftovers.code;
}

process.exitCode = await main();
