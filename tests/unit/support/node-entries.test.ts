/**
 * The bundles' folders of a run killed before its teardown go at the next run's start; the
 * folders of runs still going (another checkout sharing node_modules) stay. The hardening tests
 * start their workers from the bundles, never from the sources through tsx.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ownTempName } from '../../../electron/core/fs/temp-names';
import { TEST_WORKERS, removeLeftoverRuns } from '../../support/node-entries';

const root = fileURLToPath(new URL('../../..', import.meta.url));

let parent = '';
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** The id of a process of this machine that has ended. */
function goneProcessId(): number {
  const ended = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  expect(ended.pid).toBeGreaterThan(0);
  return ended.pid ?? 0;
}

describe('removeLeftoverRuns', () => {
  it('removes the folders of processes that are gone, keeps those of live ones', async () => {
    parent = await mkdtemp(join(tmpdir(), 'pictor-test-entries-'));
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

describe("the crash tests' bundled workers", () => {
  it('are each a source of the repository, bundled under its own name', () => {
    for (const [name, source] of Object.entries(TEST_WORKERS)) {
      expect(existsSync(join(root, source)), source).toBe(true);
      expect(source.endsWith(`/${name}.ts`), source).toBe(true);
    }
  });

  it('start from their bundles: no hardening file starts a source with tsx', () => {
    const dir = join(root, 'tests', 'hardening');
    const starts = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => /['"]--import['"],\s*['"]tsx['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(starts).toEqual([]);
  });
});
