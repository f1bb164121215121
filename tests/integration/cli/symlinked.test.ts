/**
 * The CLI script started through a symbolic link (a `bin` link, a checkout reached through a
 * linked folder) runs: it compares real paths to know it is the script Node was started with,
 * so a link never turns it into a program that silently does nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './run-cli';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

function run(script: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', script, 'help'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the CLI script', () => {
  it('runs when started through a link to it, or to a folder holding it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pictor-cli-link-'));
    made.push(dir);
    const file = join(dir, 'pictor-cli.ts');
    await symlink(join(REPO_ROOT, 'electron', 'cli', 'main.ts'), file);
    const folder = join(dir, 'checkout');
    await symlink(REPO_ROOT, folder);
    for (const script of [
      join(REPO_ROOT, 'electron', 'cli', 'main.ts'),
      file,
      join(folder, 'electron', 'cli', 'main.ts'),
    ]) {
      const result = run(script);
      expect(result.stderr).not.toMatch(/Error/);
      expect(result.stdout, script).toContain('Pictor command line');
      expect(result.status, script).toBe(0);
    }
  }, 120_000);

  it('does nothing when imported by another script', async () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--eval', "await import('./electron/cli/main.ts')"],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  }, 120_000);
});
