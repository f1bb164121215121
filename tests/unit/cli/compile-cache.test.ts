/**
 * The CLI's compile cache is pruned (electron/cli/compile-cache.ts): an upgrade of Pictor or of
 * its runtime leaves entries nothing reads (chunks are named for their content, Node keeps a folder
 * per version), and without a prune the folder grows at every upgrade for as long as the user keeps
 * the app. Real folders and files, their times set with utimes.
 */
import { mkdir, readdir, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  COMPILE_CACHE_MAX_AGE_MS,
  COMPILE_CACHE_PRUNE_EVERY_MS,
  PRUNED_MARK,
  pruneCompileCache,
} from '../../../electron/cli/compile-cache';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const NOW = Date.UTC(2026, 10, 30, 12);
const DAY = 24 * 60 * 60 * 1000;

let root: string;
let cache: string;

/** A file at `path` last written `ageMs` before NOW. */
async function entry(path: string, ageMs: number): Promise<void> {
  await writeFile(path, 'compiled');
  const at = (NOW - ageMs) / 1000;
  await utimes(path, at, at);
}

beforeEach(async () => {
  root = await tempFolder('compile-cache');
  cache = join(root, 'compile-cache');
  await mkdir(join(cache, 'v24.0.0-x64-1-0'), { recursive: true });
  await mkdir(join(cache, 'v22.0.0-x64-1-0'), { recursive: true });
});

afterEach(async () => {
  await removeFolder(root);
});

describe('pruneCompileCache', () => {
  it('takes away entries nothing wrote for the age, keeps newer ones', async () => {
    const current = join(cache, 'v24.0.0-x64-1-0');
    await entry(join(current, 'old'), COMPILE_CACHE_MAX_AGE_MS + DAY);
    await entry(join(current, 'recent'), COMPILE_CACHE_MAX_AGE_MS - DAY);
    pruneCompileCache(cache, NOW, { inUse: current });
    expect(await readdir(current)).toEqual(['recent']);
  });

  it('removes a version folder left empty, never the one in use', async () => {
    const current = join(cache, 'v24.0.0-x64-1-0');
    await entry(join(current, 'old'), COMPILE_CACHE_MAX_AGE_MS + DAY);
    await entry(join(cache, 'v22.0.0-x64-1-0', 'old'), COMPILE_CACHE_MAX_AGE_MS + DAY);
    pruneCompileCache(cache, NOW, { inUse: current });
    expect((await readdir(cache)).sort()).toEqual([PRUNED_MARK, 'v24.0.0-x64-1-0']);
    expect(await readdir(current)).toEqual([]);
  });

  it('looks the folder over at most once per period', async () => {
    const current = join(cache, 'v24.0.0-x64-1-0');
    pruneCompileCache(cache, NOW, { inUse: current });
    expect((await stat(join(cache, PRUNED_MARK))).mtimeMs).toBe(NOW);
    await entry(join(current, 'old'), COMPILE_CACHE_MAX_AGE_MS + DAY);
    pruneCompileCache(cache, NOW + COMPILE_CACHE_PRUNE_EVERY_MS - 1, { inUse: current });
    expect(await readdir(current)).toEqual(['old']);
    pruneCompileCache(cache, NOW + COMPILE_CACHE_PRUNE_EVERY_MS + 1, { inUse: current });
    expect(await readdir(current)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('follows no link, in or out of a folder', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await entry(join(outside, 'precious'), COMPILE_CACHE_MAX_AGE_MS + DAY);
    const current = join(cache, 'v24.0.0-x64-1-0');
    await symlink(join(outside, 'precious'), join(current, 'link-to-file'));
    await symlink(outside, join(cache, 'v0-link-to-folder'));
    await entry(join(current, 'old'), COMPILE_CACHE_MAX_AGE_MS + DAY);
    pruneCompileCache(cache, NOW, { inUse: current });
    expect(await readdir(outside)).toEqual(['precious']);
    expect(await readdir(current)).toEqual(['link-to-file']);
    expect(await readdir(cache)).toContain('v0-link-to-folder');
  });

  it('is quiet when the folder is gone or cannot be read', () => {
    expect(() => pruneCompileCache(join(root, 'missing'), NOW)).not.toThrow();
  });
});
