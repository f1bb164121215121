/**
 * The library's own records (spending caps, prices, templates, ratings) on a full disk, through
 * real `pictor` processes on a real small disk (a tmpfs filled to its last byte; Linux as root,
 * else skipped with the reason). SQLite needs room to open its shared-memory index beside the
 * history, so on a full disk the history cannot even be opened: the command must say the disk
 * refused, never that the history is damaged or "move it aside to start a new history", advice
 * that would leave the user with no spending caps (money), no templates and no ratings. Once
 * there is room again, every one is there as it was.
 */
import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, runCli, type CliRun } from '../../integration/cli/run-cli';
import { fillDisk, mountTmpfs, probeMount, remount, unmount } from '../crashes/disk-fixture';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const mount = probeMount();
if (!mount.ok) console.warn(`history-disk-full: SKIPPED (${mount.reason}).`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The commands that read or change what the history keeps, and what each shows of it. */
const READS: readonly (readonly [string[], RegExp])[] = [
  [['caps', 'list'], /\$5\.00/],
  [['prices', 'list'], /0\.25/],
  [['template', 'ls'], /dusk/],
];
const WRITES: readonly string[][] = [
  ['caps', 'set', '--period', 'month', '--amount', '50', '--unit', 'usd'],
  ['prices', 'set', '--provider', 'bfl', '--amount', '0.5', '--unit', 'usd'],
  ['template', 'add', 'dawn', '--body', '{{prompt}} at dawn'],
];

/** A library with a cap, a price and a template, on its own small disk. */
async function libraryOnSmallDisk() {
  const base = await tempFolder('history-full');
  cleanups.push(() => removeFolder(base));
  const home = join(base, 'home');
  const disk = join(base, 'small');
  await mkdir(home);
  await mkdir(disk);
  mountTmpfs(disk, 8 * 1024 * 1024);
  cleanups.push(() => unmount(disk));
  const data = join(disk, 'data');
  const cli = (args: readonly string[]): Promise<CliRun> =>
    runCli([...args, '--data-dir', data], { home, timeoutMs: 60_000 });
  const ok = async (args: readonly string[]) => {
    const run = await cli(args);
    expect(run.code, describeRun(run)).toBe(0);
    return run;
  };
  await ok(['caps', 'set', '--period', 'day', '--amount', '5', '--unit', 'usd']);
  await ok(['prices', 'set', '--provider', 'fal', '--amount', '0.25', '--unit', 'usd']);
  await ok(['template', 'add', 'dusk', '--body', '{{prompt}} at dusk']);
  return { disk, cli, ok };
}

/** Every command is refused with `says` (about the disk), and no sentence of a damaged history. */
async function expectDiskRefused(cli: (args: readonly string[]) => Promise<CliRun>, says: RegExp) {
  for (const args of [...READS.map(([read]) => read), ...WRITES]) {
    const run = await cli(args);
    expect(run.code, describeRun(run)).toBe(5);
    expect(run.stderr, describeRun(run)).toMatch(says);
    expect(run.stderr, describeRun(run)).not.toMatch(/damaged|move it aside|new history/i);
  }
}

describe.skipIf(!mount.ok)('the history on a disk that refuses', () => {
  it('full: says so, not that the history is damaged, and keeps every record', async () => {
    const { disk, cli, ok } = await libraryOnSmallDisk();
    const filler = fillDisk(disk);
    await expectDiskRefused(cli, /the disk refused \(full, read-only or failing\)/);
    rmSync(filler);
    for (const [read, shows] of READS) expect((await ok(read)).stdout).toMatch(shows);
  });

  it('read-only: says so, and keeps every record', async () => {
    const { disk, cli, ok } = await libraryOnSmallDisk();
    remount(disk, 'ro');
    // A read finds the history cannot be opened for writing, a change its hold refused.
    await expectDiskRefused(
      cli,
      /Check that the folder exists and is writable|the disk refused a file in its data folder/,
    );
    remount(disk, 'rw');
    for (const [read, shows] of READS) expect((await ok(read)).stdout).toMatch(shows);
  });
});
