/**
 * `pictor self-test` from a checkout: the script as a user runs it, on this host's plain-Node image
 * engine (native sharp here), passes every step (one per image format, the signed sample through
 * the worker-thread verifier) and prints one JSON line; without an engine it would fail at
 * `image-png` (the steps the command exists to check).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TempFolders } from '../../support/temp-folders';
import { REPO_ROOT } from './run-cli';
import { bareEnv } from '../../support/child-env';

/** The run's HOME (the temporary folder itself as HOME got a `.cache` it kept). */
const homes = new TempFolders();
afterEach(() => homes.removeAll());

describe('pictor self-test from a checkout', () => {
  it('runs the image path on the host’s engine and reports every step ok', async () => {
    const home = await homes.make('self-test-home');
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'electron', 'cli', 'main.ts'), 'self-test'],
      {
        cwd: REPO_ROOT,
        env: bareEnv({ HOME: home, NO_COLOR: '1' }),
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    const lines = result.stdout.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    const report = JSON.parse(lines[0]!) as {
      ok: boolean;
      imageEngine: string;
      steps: { step: string; ok: boolean }[];
    };
    expect(report.imageEngine).toBe('sharp-native');
    expect(report.steps.map((step) => [step.step, step.ok])).toEqual([
      ['history', true],
      ['image-png', true],
      ['image-jpeg', true],
      ['image-webp', true],
      ['xmp', true],
      ['credentials', true],
      ['c2pa-worker', true],
      ['encryption', true],
    ]);
    expect(report.ok).toBe(true);
    expect(result.status).toBe(0);
  }, 180_000);
});
