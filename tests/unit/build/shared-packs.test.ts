/**
 * The packaging files share each target's pack (tests/packaging/shared-packs.ts): whoever claims a
 * target's group packs it, everyone else waits for its result or its failure. Callers here stand
 * for the test files; the packer writes a real folder and counts its runs.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { groupName, PACK_GROUPS, type GroupPack } from '../../packaging/pack-groups';
import { sharedPacks } from '../../packaging/shared-packs';
import { RELEASE_TARGETS, targetName, type Target } from '../../packaging/stand-in-targets';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let packsDir = '';
beforeEach(async () => {
  packsDir = await tempFolder('shared-packs');
});
afterEach(async () => {
  await removeFolder(packsDir);
});

/** Resolves once `count` targets have been claimed (folders in the packs folder). */
async function claimed(count: number): Promise<void> {
  await vi.waitFor(
    async () => expect((await readdir(packsDir)).length).toBeGreaterThanOrEqual(count),
    UNTIL,
  );
}

/**
 * A packer that writes a file per target into the pack's folder and records who packed which
 * group. With `shareWith`, a pack ends only once that many groups are claimed: a caller that
 * waited for a pack in progress instead of claiming the next group would never get there.
 */
function countingPacker(
  runs: string[],
  who: string,
  options: { fail?: string; shareWith?: number } = {},
) {
  const { fail, shareWith = 0 } = options;
  return async (group: readonly Target[], dir: string): Promise<GroupPack> => {
    runs.push(`${who}:${groupName(group)}`);
    await claimed(shareWith);
    if (group.some((target) => targetName(target) === fail))
      throw new Error(`electron-builder ${fail} failed: no space`);
    const appOut: Record<string, string> = {};
    for (const target of group) {
      appOut[targetName(target)] = join(dir, targetName(target));
      await writeFile(join(dir, targetName(target)), targetName(target));
    }
    return { appOut, log: `packed ${groupName(group)} by ${who}` };
  };
}

const source = (pack: ReturnType<typeof countingPacker>) => ({
  buildRoot: '/nowhere',
  packsDir,
  pack,
});

describe('sharedPacks', () => {
  it('packs each group once for two callers at once, and both get every target’s pack', async () => {
    const runs: string[] = [];
    const [first, second] = await Promise.all([
      sharedPacks(RELEASE_TARGETS, source(countingPacker(runs, 'a', { shareWith: 2 }))),
      sharedPacks(RELEASE_TARGETS, source(countingPacker(runs, 'b', { shareWith: 2 }))),
    ]);
    const packedGroups = runs.map((run) => run.split(':')[1]).sort();
    expect(packedGroups).toEqual(PACK_GROUPS.map(groupName).sort());
    // Every release target is in exactly one group.
    expect(PACK_GROUPS.flat().map(targetName).sort()).toEqual(
      RELEASE_TARGETS.map(targetName).sort(),
    );
    // The work was shared: each caller packed some.
    expect(new Set(runs.map((run) => run.split(':')[0]))).toEqual(new Set(['a', 'b']));
    for (const target of RELEASE_TARGETS) expect(first(target)).toEqual(second(target));
    const windows = RELEASE_TARGETS.find((target) => target.os === 'win')!;
    expect(first(windows).log).toMatch(/^packed win-x64\+linux-x64 by [ab]$/);
    expect(first(windows).appOut).toMatch(/win-x64$/);
  });

  it('gives a later caller the packs made before, without packing again', async () => {
    const runs: string[] = [];
    const linux = RELEASE_TARGETS.filter((target) => target.os === 'linux');
    const made = await sharedPacks(linux, source(countingPacker(runs, 'a')));
    const later = await sharedPacks(RELEASE_TARGETS, source(countingPacker(runs, 'b')));
    expect(runs).toEqual(['a:win-x64+linux-x64', 'b:mac-x64+mac-arm64']);
    expect(later(linux[0]!)).toEqual(made(linux[0]!));
    // A target nobody asked for is an error, not an empty pack.
    expect(() => made(RELEASE_TARGETS[0]!)).toThrow(/mac-x64 was not among the targets packed/);
    const windows = RELEASE_TARGETS.find((target) => target.os === 'win')!;
    expect(() => made(windows)).toThrow(/win-x64 was not among the targets packed/);
  });

  it('fails every caller with the packer’s own error when a pack fails', async () => {
    const runs: string[] = [];
    const results = await Promise.allSettled([
      sharedPacks(RELEASE_TARGETS, source(countingPacker(runs, 'a', { fail: 'mac-arm64' }))),
      sharedPacks(RELEASE_TARGETS, source(countingPacker(runs, 'b', { fail: 'mac-arm64' }))),
    ]);
    expect(runs.filter((run) => run.includes('mac-arm64'))).toHaveLength(1);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect(String((result as PromiseRejectedResult).reason)).toMatch(
        /electron-builder mac-arm64 failed: no space/,
      );
    }
  });
});
