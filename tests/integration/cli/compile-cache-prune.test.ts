/**
 * The bundled CLI, started from the shell as a user does, prunes its compile cache after the
 * command (electron/cli/compile-cache.ts): entries an older runtime wrote and nothing has written
 * since are taken away, with their folder, while the folder this start uses is filled.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRUNED_MARK } from '../../../electron/cli/compile-cache';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { childEnv, REPO_ROOT } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let home: string;

beforeAll(async () => {
  home = await tempFolder('cache-prune');
});

afterAll(async () => {
  await removeFolder(home);
});

it('takes away what an older runtime left in the cache, and fills its own folder', async () => {
  const cache = join(home, '.cache', 'Pictor', 'compile-cache');
  const stale = join(cache, 'v0.0.0-x64-00000000-0');
  await mkdir(stale, { recursive: true, mode: 0o700 });
  await writeFile(join(stale, 'entry'), 'compiled');
  const longAgo = Date.now() / 1000 - 60 * 24 * 60 * 60;
  await utimes(join(stale, 'entry'), longAgo, longAgo);
  // Not the test run's shared cache (node-entries-setup.ts): the CLI picks the user's folder.
  const env = childEnv({ home });
  delete env.NODE_COMPILE_CACHE;
  const child = spawn(process.execPath, [...nodeEntryArgs('cli'), '--version'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [code] = (await once(child, 'close')) as [number | null];
  expect(code, stderr).toBe(0);
  const left = await readdir(cache);
  expect(left).toContain(PRUNED_MARK);
  expect(left).not.toContain('v0.0.0-x64-00000000-0');
  const own = left.filter((name) => name !== PRUNED_MARK);
  expect(own).toHaveLength(1);
  expect(await readdir(join(cache, own[0] ?? ''))).not.toEqual([]);
});
