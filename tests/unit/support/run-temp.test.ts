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

/** A process of the run that makes each of `folders` (a path inside the temporary folder). */
function runMaking(env: NodeJS.ProcessEnv, folders: readonly string[]): void {
  const script = `
    const { mkdirSync, mkdtempSync } = require('node:fs');
    const { join } = require('node:path');
    const { tmpdir } = require('node:os');
    for (const folder of ${JSON.stringify(folders)}) {
      if (folder.endsWith('-')) mkdtempSync(join(tmpdir(), folder));
      else mkdirSync(join(tmpdir(), folder), { recursive: true });
    }`;
  execFileSync(process.execPath, ['-e', script], { env, stdio: 'ignore' });
}

describe('a run’s own temporary folder', () => {
  it('fails a run that leaves a test’s folder, naming it, and removes the folder', async () => {
    const env = { ...process.env };
    const temp = await runTemp(env);
    expect(env.TMPDIR).toBe(temp.dir);
    expect(temp.dir.startsWith(tmpdir())).toBe(true);
    runMaking(env, ['pictor-trash-journal-', 'pictor-ci-mcp-']);
    const left = await temp.end();
    expect(left.tests.map((name) => name.replace(/-\w{6}$/, '-XXXXXX'))).toEqual([
      'pictor-ci-mcp-XXXXXX',
      'pictor-trash-journal-XXXXXX',
    ]);
    expect(existsSync(temp.dir)).toBe(false);
    expect(env.TMPDIR).toBe(process.env.TMPDIR);
  });

  it('passes a run that leaves only the tools’ files and the kept parents, emptied', async () => {
    const env = { ...process.env };
    const temp = await runTemp(env);
    const kept = [runsParentName('test-entries'), runsParentName('run-cache')];
    runMaking(env, ['.org.chromium.Chromium.abc123', 'node-compile-cache/v24', 'tsx-0', ...kept]);
    const left = await temp.end();
    expect(left.tests).toEqual([]);
    expect(left.others).toEqual(['.org.chromium.Chromium.abc123', 'node-compile-cache', 'tsx-0']);
    expect(existsSync(temp.dir)).toBe(false);
  });

  it('counts a run’s folder left inside a kept parent as a leftover', async () => {
    const env = { ...process.env };
    const temp = await runTemp(env);
    const parent = runsParentName('run-cache');
    runMaking(env, [`${parent}/4242-abcdef`, runsParentName('test-entries')]);
    expect((await temp.end()).tests).toEqual([`${parent}/4242-abcdef`]);
  });
});
