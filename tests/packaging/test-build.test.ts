/**
 * The run's test build (global-setup.ts, tests/support/test-build.ts): the release's
 * `npm run build` with NODE_ENV=production, written into a temporary folder outside the
 * repository, which the other packaging tests pack; the working tree's dist/ and dist-electron/
 * are left as they were. And the refusal: the same build under the test runner's NODE_ENV holds
 * React's development build, which the journeys and the bench refuse.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { copyFile, readdir, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  acquireTestBuild,
  checkTestBuild,
  isInRepo,
  listWorkingTreeBuild,
  npmRun,
  rendererBuildKind,
  testBuildAt,
  TEST_BUILD_ENV,
} from '../support/test-build';
import { removeFolder, tempFolder } from '../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = testBuildAt(inject('pictorTestBuild'));

/** Total bytes of the renderer's scripts in `rendererDir`. */
async function scriptBytes(rendererDir: string): Promise<number> {
  const assets = path.join(rendererDir, 'assets');
  const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  const sizes = await Promise.all(scripts.map((name) => stat(path.join(assets, name))));
  return sizes.reduce((sum, size) => sum + size.size, 0);
}

describe('the test build', () => {
  it('lies in a temporary folder, outside the repository', () => {
    expect(isInRepo(BUILD.root)).toBe(false);
    const inTmp = path.relative(realpathSync(os.tmpdir()), realpathSync(BUILD.root));
    expect(inTmp.startsWith('..') || path.isAbsolute(inTmp), inTmp).toBe(false);
  });

  it('is complete and React’s production build', () => {
    expect(() => checkTestBuild(BUILD)).not.toThrow();
    expect(rendererBuildKind(BUILD.rendererDir)).toBe('production');
  });

  it('left the working tree’s dist/ and dist-electron/ as they were before the run', () => {
    expect(listWorkingTreeBuild()).toEqual(inject('pictorWorkingTreeBefore'));
  });
});

describe('a build under the test runner’s NODE_ENV', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await removeFolder(dir);
  });

  it('is a development build, larger, and refused', async () => {
    dir = await tempFolder('dev-build');
    // What the packaging setup did before it set NODE_ENV=production: vitest's NODE_ENV.
    expect(process.env.NODE_ENV).toBe('test');
    // The renderer's half of `npm run build` (its first step): the half React's build comes in.
    // The main side's bundles, which NODE_ENV does not make a development build of, are the test
    // build's, linked, so the folder is complete and is refused for its renderer alone.
    const [command, args] = npmRun('build:renderer');
    await promisify(execFile)(command, args, {
      cwd: ROOT,
      env: { ...process.env, PICTOR_BUILD_DIR: dir },
      maxBuffer: 64 * 1024 * 1024,
    });
    await copyFile(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
    await symlink(BUILD.electronDir, path.join(dir, 'dist-electron'), 'junction');
    const development = testBuildAt(dir);
    expect(rendererBuildKind(development.rendererDir)).toBe('development');
    expect(await scriptBytes(development.rendererDir)).toBeGreaterThan(
      await scriptBytes(BUILD.rendererDir),
    );
    expect(() => checkTestBuild(development)).toThrow(/development build, which no user gets/);
    await expect(acquireTestBuild({ [TEST_BUILD_ENV]: dir })).rejects.toThrow(/development build/);
    // Written where it was told, like the test build: the working tree is still untouched.
    expect(listWorkingTreeBuild()).toEqual(inject('pictorWorkingTreeBefore'));
  }, 180_000);
});
