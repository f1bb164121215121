/**
 * The bundles' folders of a run killed before its teardown go at the next run's start; the
 * folders of runs still going (another checkout sharing node_modules) stay. The hardening tests
 * start their workers from the bundles, never from the sources through tsx.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownTempName } from '../../../electron/core/fs/temp-names';
import {
  NODE_ENTRIES,
  NODE_ENTRIES_ENV,
  TEST_WORKERS,
  acquireTestEntries,
  removeLeftoverRuns,
} from '../../support/node-entries';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { REPO_ROOT } from '../../support/source-files';

let parent = '';
afterEach(async () => {
  await removeFolder(parent);
});

/** The id of a process of this machine that has ended. */
function goneProcessId(): number {
  const ended = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  expect(ended.pid).toBeGreaterThan(0);
  return ended.pid ?? 0;
}

describe('removeLeftoverRuns', () => {
  it('removes the folders of processes that are gone, keeps those of live ones', async () => {
    parent = await tempFolder('test-entries');
    const live = ownTempName('');
    const hostTag = live.split('-')[0] ?? '';
    const killed = `${hostTag}-${String(goneProcessId())}-0123abcd`;
    const otherHost = `${hostTag === 'ffffffff' ? '00000000' : 'ffffffff'}-${String(goneProcessId())}-0123abcd`;
    const older = 'run-Ab12Cd';
    for (const name of [live, killed, otherHost, older]) {
      await mkdir(join(parent, name));
      await writeFile(join(parent, name, 'cli.js'), '');
    }
    await removeLeftoverRuns(parent);
    expect(existsSync(join(parent, live))).toBe(true);
    // Another machine's process cannot be asked: its folder stays until it is a day old.
    expect(existsSync(join(parent, otherHost))).toBe(true);
    expect(existsSync(join(parent, killed))).toBe(false);
    // Named before folders said their process: nobody's.
    expect(existsSync(join(parent, older))).toBe(false);
  });
});

describe('acquireTestEntries', () => {
  /** A folder holding a (blank) bundle of every entry but `missing`. */
  async function bundlesFolder(missing?: string): Promise<string> {
    parent = await tempFolder('test-entries');
    for (const name of Object.keys({ ...NODE_ENTRIES, ...TEST_WORKERS })) {
      if (name !== missing) await writeFile(join(parent, `${name}.js`), '');
    }
    return parent;
  }

  it('takes the bundles the run named (npm test built them once) and leaves them to their builder', async () => {
    const dir = await bundlesFolder();
    const env = { [NODE_ENTRIES_ENV]: dir };
    const acquired = await acquireTestEntries(env);
    expect(acquired.dir).toBe(dir);
    await acquired.release();
    expect(existsSync(join(dir, 'cli.js'))).toBe(true);
    expect(env).toEqual({ [NODE_ENTRIES_ENV]: dir });
  });

  it('refuses a named folder that lacks a bundle', async () => {
    const dir = await bundlesFolder('demo-service');
    await expect(acquireTestEntries({ [NODE_ENTRIES_ENV]: dir })).rejects.toThrow(
      /demo-service\.js is missing/,
    );
  });
});

describe("the crash tests' bundled workers", () => {
  it('are each a source of the repository, bundled under its own name', () => {
    for (const [name, source] of Object.entries(TEST_WORKERS)) {
      expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
      expect(source.endsWith(`/${name}.ts`), source).toBe(true);
    }
  });

  it('start from their bundles: no hardening file starts a source with tsx', () => {
    const dir = join(REPO_ROOT, 'tests', 'hardening');
    const starts = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => /['"]--import['"],\s*['"]tsx['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(REPO_ROOT, file));
    expect(starts).toEqual([]);
  });
});
