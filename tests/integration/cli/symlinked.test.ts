/**
 * The CLI script started through a symbolic link (a `bin` link, a checkout reached through a
 * linked folder) runs: it compares real paths to know it is the script Node was started with,
 * so a link never turns it into a program that silently does nothing. The script is the run's
 * bundle of it (tests/support/node-entries.ts), which holds main.ts's check as built: a start of
 * the source through tsx cost about 1 s of CPU each, four times.
 */
import { spawnSync } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { REPO_ROOT } from './run-cli';
import { TempFolders } from '../../support/temp-folders';
import { bareEnv } from '../../support/child-env';

const made = new TempFolders();
afterEach(async () => {
  await made.removeAll();
});

/** The bundled CLI script (electron/cli/main.ts as built). */
const script = (): string => nodeEntryArgs('cli')[0] ?? '';

/** What `--version` prints (npm's variable, as `npm run cli` sets it): a script that ran. */
const VERSION = '0.0.0-linked';

/**
 * `pictor --version` from `path` (`help` would load every command's declaration), with a HOME of
 * its own: the temporary folder as HOME got a `.cache` it kept.
 */
function run(path: string, home: string) {
  return spawnSync(process.execPath, [path, '--version'], {
    cwd: REPO_ROOT,
    env: bareEnv({ HOME: home, NO_COLOR: '1', npm_package_version: VERSION }),
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the CLI script', () => {
  it('runs when started through a link to it, or to a folder holding it', async () => {
    const dir = await made.make('cli-link');
    const bundle = script();
    const file = join(dir, 'pictor-cli.js');
    await symlink(bundle, file);
    const folder = join(dir, 'checkout');
    await symlink(dirname(bundle), folder);
    const home = await made.make('cli-link-home');
    for (const linked of [bundle, file, join(folder, basename(bundle))]) {
      const result = run(linked, home);
      expect(result.stderr).not.toMatch(/Error/);
      expect(result.stdout, linked).toBe(`${VERSION}\n`);
      expect(result.status, linked).toBe(0);
    }
  }, 120_000);

  it('does nothing when imported by another script', async () => {
    const result = spawnSync(
      process.execPath,
      ['--input-type=module', '--eval', `await import(${JSON.stringify(script())})`],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000, env: bareEnv() },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  }, 120_000);
});
