/**
 * tests/support/run-temp.ts: a run's own temporary folder, named in TMPDIR for the processes the
 * run starts, and what they left in it judged by name when it ends. Real child processes make
 * their folders through Node's own `os.tmpdir()`, as every test and tool of a run does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runsParentName } from '../../support/node-entries';
import { runTemp } from '../../support/run-temp';

/**
 * A run in a folder of its own whose one process makes each of `folders` (a path inside its
 * temporary folder; ending in `-` a mkdtemp's, in `.json` a file): what `end` judged, the folder it had, and what TMPDIR named meanwhile. The
 * folder is ended (removed) whatever the process did.
 */
async function runMaking(folders: readonly string[]) {
  const env = { ...process.env };
  const temp = await runTemp(env);
  const named = env.TMPDIR;
  const script = `
    const { mkdirSync, mkdtempSync, writeFileSync } = require('node:fs');
    const { join } = require('node:path');
    const { tmpdir } = require('node:os');
    for (const folder of ${JSON.stringify(folders)}) {
      if (folder.endsWith('-')) mkdtempSync(join(tmpdir(), folder));
      else if (folder.endsWith('.json')) writeFileSync(join(tmpdir(), folder), '{}');
      else mkdirSync(join(tmpdir(), folder), { recursive: true });
    }`;
  let failed: unknown = null;
  try {
    execFileSync(process.execPath, ['-e', script], { env, stdio: 'ignore' });
  } catch (error) {
    failed = error;
  }
  const left = await temp.end();
  if (failed !== null) throw failed;
  return { left, dir: temp.dir, named, after: env.TMPDIR };
}

describe('a run’s own temporary folder', () => {
  it('fails a run that leaves a test’s folder, naming it, and removes the folder', async () => {
    const run = await runMaking(['pictor-trash-journal-', 'pictor-ci-mcp-']);
    expect(run.named).toBe(run.dir);
    expect(run.dir.startsWith(tmpdir())).toBe(true);
    expect(run.left.leftovers.map((name) => name.replace(/-\w{6}$/, '-XXXXXX'))).toEqual([
      'pictor-ci-mcp-XXXXXX',
      'pictor-trash-journal-XXXXXX',
    ]);
    expect(existsSync(run.dir)).toBe(false);
    expect(run.after).toBe(process.env.TMPDIR);
  });

  it('passes a run that leaves only the tools’ files and the kept parents, emptied', async () => {
    const kept = [runsParentName('test-entries'), runsParentName('run-cache')];
    // What runs of vitest, a journey and the packaging steps left (their names as the tools
    // gave them, the random tails of this machine's runs).
    const run = await runMaking([
      '.org.chromium.Chromium.abc123',
      'org.chromium.Chromium.ZgsIN1',
      'jiti',
      'node-compile-cache/v24',
      'playwright-transform-cache-0/1a',
      'tsx-0',
      ...kept,
    ]);
    expect(run.left.leftovers).toEqual([]);
    expect(run.left.tools).toEqual([
      '.org.chromium.Chromium.abc123 (Chromium)',
      'jiti (jiti)',
      'node-compile-cache (Node)',
      'org.chromium.Chromium.ZgsIN1 (Chromium)',
      'playwright-transform-cache-0 (Playwright)',
      'tsx-0 (tsx)',
    ]);
    expect(existsSync(run.dir)).toBe(false);
  });

  it('fails a run that leaves anything of no tool’s, whatever its name', async () => {
    const run = await runMaking([
      'scratch-',
      'report.json',
      'tsx-0-copy/',
      'org.chromium.Chromium/',
      'jiti-x/',
      'tsx-0',
    ]);
    expect(run.left.leftovers.map((name) => name.replace(/-\w{6}$/, '-XXXXXX'))).toEqual([
      'jiti-x',
      'org.chromium.Chromium',
      'report.json',
      'scratch-XXXXXX',
      'tsx-0-copy',
    ]);
    expect(run.left.tools).toEqual(['tsx-0 (tsx)']);
  });

  it('counts a run’s folder left inside a kept parent as a leftover', async () => {
    const parent = runsParentName('run-cache');
    const run = await runMaking([`${parent}/4242-abcdef`, runsParentName('test-entries')]);
    expect(run.left.leftovers).toEqual([`${parent}/4242-abcdef`]);
  });
});
