/**
 * `npm run soak [-- <test files or folders>]`: the hardening suites at their larger size
 * (PICTOR_SOAK=1: e.g. 1,000 tasks under faults, 100 kills over 200 tasks, 20,000 payloads per
 * IPC channel), then docs/RELIABILITY.md from the figures. Takes tens of minutes on two cores.
 */
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../support/source-files';

const targets = process.argv.slice(2);

const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    // Both hardening projects: the files that share a process and those with one of their own.
    'hardening*',
    '--testTimeout',
    String(3 * 60 * 60 * 1000),
    '--hookTimeout',
    String(10 * 60 * 1000),
    ...targets,
  ],
  { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, PICTOR_SOAK: '1' } },
);
// The figures of the suites that passed are worth a report even when another failed.
const report = spawnSync('npx', ['tsx', 'tests/hardening/report.ts'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
process.exit(run.status === 0 ? (report.status ?? 1) : (run.status ?? 1));
