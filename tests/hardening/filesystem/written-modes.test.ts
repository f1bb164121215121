/**
 * What the modes of everything Pictor writes owe nothing to the umask. A `pictor` command run by a
 * user whose umask is 000 (a shell set so, a service manager's default) makes a library, exports
 * it, imports the archive into another library and keeps a template; then every folder under
 * both data folders is closed to group and others (0700: the gallery's year, month and task
 * folders, `.thumbs`, `.pictor-tmp`, `.pictor-templates`, the import's staging), and no file
 * there is writable by group or others. Real child processes under `umask 000`, real files.
 * POSIX only (Windows has no such modes); the umask is set by `sh`.
 */
import { spawn } from 'node:child_process';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childEnv, REPO_ROOT } from '../../integration/cli/run-cli';
import { QUICK_POLL } from '../../support/quick-demo';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { tool } from '../../support/tools';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const sh = tool('sh');

let base: string;
beforeEach(async () => {
  base = await tempFolder('written-modes');
});
afterEach(() => removeFolder(base));

/** Runs the CLI with `args` in a shell whose umask is 000; its exit code and output. */
function runUnmasked(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    sh.path ?? 'sh',
    ['-c', 'umask 000 && exec "$@"', 'sh', process.execPath, ...nodeEntryArgs('cli'), ...args],
    { cwd: REPO_ROOT, env: childEnv({ home: join(base, 'home') }), stdio: 'pipe' },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function ran(args: readonly string[]): Promise<void> {
  const run = await runUnmasked(args);
  expect([args.join(' '), run.code, run.output]).toEqual([args.join(' '), 0, run.output]);
}

/** Every entry under `dir` (not `dir` itself), links not followed: its path and mode bits. */
async function entriesUnder(
  dir: string,
): Promise<{ path: string; folder: boolean; mode: number }[]> {
  const found: { path: string; folder: boolean; mode: number }[] = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const info = await lstat(path);
    found.push({ path, folder: info.isDirectory(), mode: info.mode & 0o7777 });
    if (info.isDirectory()) found.push(...(await entriesUnder(path)));
  }
  return found;
}

describe.skipIf(process.platform === 'win32' || sh.path === null)(
  `modes under a permissive umask${sh.missing ? ` (${sh.missing})` : ''}`,
  () => {
    it('keeps every folder of a library 0700 and no file writable by others', async () => {
      await mkdir(join(base, 'home'));
      const data = join(base, 'data');
      const other = join(base, 'other');
      const archive = join(base, 'library.zip');
      // Its tasks looked at every 0.1 s, not every 3 s (QUICK_POLL).
      await ran([
        'demo',
        'a lighthouse at dusk',
        '--count',
        '2',
        '--data-dir',
        data,
        ...QUICK_POLL,
      ]);
      await ran(['template', 'add', 'dusk', '--body', '{{prompt}} at dusk', '--data-dir', data]);
      await ran(['export', archive, '--data-dir', data]);
      await ran(['import', archive, '--data-dir', other]);

      const entries = [...(await entriesUnder(data)), ...(await entriesUnder(other))];
      const shown = (entry: { path: string; mode: number }) =>
        `${relative(base, entry.path)} ${entry.mode.toString(8).padStart(4, '0')}`;
      // What is checked: the thumbnails' and the templates' folders are among them.
      const names = entries.map((entry) => relative(base, entry.path));
      expect(names.filter((name) => name.endsWith('.thumbs')).length).toBe(4);
      expect(names.some((name) => name.endsWith('.pictor-templates'))).toBe(true);

      const openFolders = entries.filter((entry) => entry.folder && (entry.mode & 0o077) !== 0);
      const othersWrite = entries.filter((entry) => !entry.folder && (entry.mode & 0o022) !== 0);
      expect(openFolders.map(shown)).toEqual([]);
      expect(othersWrite.map(shown)).toEqual([]);
    });
  },
);
