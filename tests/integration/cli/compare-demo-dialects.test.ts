/**
 * `pictor compare` on several dialects of the built-in demo in one command (`--target demo`,
 * `demo:fal`, `demo:bfl`, …), through the CLI's entry in this process (run-cli.ts's runCliHere): each dialect's demo started once inside the
 * command on 127.0.0.1, real HTTP, real PNGs saved, free, listed and costed as the demo, and no
 * real key (PICTOR_KEY_*, SERVICE_API_KEY) read or printed. A demo:fal task the command did not
 * see finish is resumed by `resume --provider demo`, which starts the demo of its dialect.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Real-looking keys of real services: none may be read, sent or printed on the demo. */
const REAL_KEYS = {
  PICTOR_KEY_FAL: 'fal-real-key-3f9a77c1',
  PICTOR_KEY_BFL: 'bfl-real-key-0be4d2aa',
  PICTOR_KEY_REPLICATE: 'r8_real-key-51c0e9',
  SERVICE_API_KEY: 'sk-real-contract-key-88d1',
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function world() {
  const home = await tempFolder('demo-dialects');
  cleanups.push(() => removeFolder(home));
  const dataDir = join(home, 'data');
  const cli = (args: readonly string[], durationMs = 300, timeout = '30') =>
    runCliHere([...args, '--data-dir', dataDir, '--poll-interval', '0.2', '--timeout', timeout], {
      home,
      env: { ...REAL_KEYS, PICTOR_DEMO_DURATION_MS: String(durationMs) },
    });
  return { cli };
}

function expectNoRealKey(run: CliRun): void {
  for (const key of Object.values(REAL_KEYS)) {
    expect(run.stdout + run.stderr, describeRun(run)).not.toContain(key);
  }
}

/** The rows of a compare's plain output (one per target) and the image paths under them. */
function rowsAndPaths(run: CliRun): { rows: string[]; paths: string[] } {
  const [groupLine, ...lines] = run.stdout.trim().split('\n');
  expect(groupLine, describeRun(run)).toMatch(/^Compare group [0-9a-f-]{36}$/);
  return {
    rows: lines.filter((line) => !line.startsWith(' ')),
    paths: lines.filter((line) => line.startsWith('    ')).map((line) => line.trim()),
  };
}

describe('pictor compare on the built-in demo’s dialects', () => {
  it('runs demo, demo:fal and demo:bfl in one command: free, saved, named demo', async () => {
    const { cli } = await world();
    const targets = ['demo', 'demo:fal', 'demo:bfl'].flatMap((t) => ['--target', t]);
    const run = await cli(['compare', '--prompt', 'a fox', ...targets, '--size', '256x256']);
    expect(run.code, describeRun(run)).toBe(0);
    expectNoRealKey(run);
    expect(run.stderr).toContain("Using Pictor's built-in demo service");
    const { rows, paths } = rowsAndPaths(run);
    expect(rows).toHaveLength(3);
    // Each row says its dialect, and that it ran on the demo.
    const labels = ['Image task service (demo)', 'fal.ai (demo) · ', 'Black Forest Labs (demo) · '];
    for (const [n, row] of rows.entries()) {
      expect(row.startsWith(labels[n]!), row).toBe(true);
      expect(row).toMatch(/ {2}id [0-9a-f]{8} {2}task \S+ {2}completed .* {2}free {2}/);
    }
    expect(paths).toHaveLength(3);
    for (const path of paths) {
      const bytes = await readFile(path);
      expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), path).toBe(true);
    }
    // Each dialect's task is recorded on its own demo endpoint, and each is the demo's.
    const listed = await cli(['list', '--provider', 'demo', '--json']);
    expect(listed.code, describeRun(listed)).toBe(0);
    const records = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(3);
    for (const record of records) expect(record).toMatchObject({ provider: 'demo' });
    const costs = await cli(['costs', '--provider', 'demo', '--json']);
    expect(costs.code, describeRun(costs)).toBe(0);
    const ledger = JSON.parse(costs.stdout) as { tasks: { provider: string; cost: unknown }[] };
    expect(ledger.tasks).toHaveLength(3);
    for (const task of ledger.tasks) expect(task.provider).toBe('demo');
    // Not one of them counts as fal's or BFL's.
    const fal = await cli(['list', '--provider', 'fal', '--json']);
    expect(fal.stdout.trim()).toBe('');
  }, 90_000);

  it('refuses a dialect the demo does not speak, before anything runs', async () => {
    const { cli } = await world();
    const run = await cli([
      'compare',
      '--prompt',
      'a fox',
      '--target',
      'demo',
      '--target',
      'demo:flux',
    ]);
    expect(run.code, describeRun(run)).toBe(2);
    expect(run.stderr).toContain('--target demo:DIALECT names a dialect of the built-in demo');
  }, 30_000);

  it('resumes a demo:fal task the command did not see finish with resume --provider demo', async () => {
    const { cli } = await world();
    const targets = ['demo:fal', 'demo:replicate'].flatMap((t) => ['--target', t]);
    const first = await cli(
      ['compare', '--prompt', 'a slow fox', ...targets, '--size', '256x256'],
      6_000,
      '0.8',
    );
    expect(first.code, describeRun(first)).toBe(3);
    expectNoRealKey(first);
    // The resume's demo makes each task again from the history, created when it first was: with
    // this command's duration (0.3 s) they are due by now, so the resume's first poll finds them
    // done (it waited out the first command's 6 s before, about 5 s of wall time). A task the
    // recall did not make again would be answered "no such task": the resume would not exit 0.
    const resumed = await cli(['resume', '--all', '--provider', 'demo', '--json'], 300);
    expect(resumed.code, describeRun(resumed)).toBe(0);
    expectNoRealKey(resumed);
    const listed = await cli(['list', '--provider', 'demo', '--json']);
    const records = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(2);
    for (const record of records) expect(record).toMatchObject({ status: 'completed' });
  }, 90_000);
});
