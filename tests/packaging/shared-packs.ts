/**
 * Each release target packed once per run and read by every test file that checks a packed app
 * (targets, packaged-boot, ci-steps and package.test.ts): the same electron-builder run, the same
 * arguments (pack-groups.ts), so one pack serves them all. Packing them per file ran
 * electron-builder nine times for four distinct results, each run taking both cores for seconds.
 * The targets are packed in groups, one electron-builder run each (pack-groups.ts's PACK_GROUPS:
 * the two macOS targets, then Windows and Linux).
 *
 * The files run in separate processes, at once. A group's pack belongs to the first file that
 * creates its folder in the run's packs folder (global-setup.ts; `mkdir` fails for every other);
 * that file packs into it and writes `result.json` (each target's output folder and
 * electron-builder's log) or `failed.txt` (why it failed), each renamed into place whole. A file
 * asks for the groups of its targets in order, packs every one it can claim and then waits for the
 * rest, so two files asking for the same four targets pack one group each. Nobody writes into a
 * pack once it is made: a test that edits files copies them first.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { groupName, groupOf, packGroup, type GroupPack } from './pack-groups';
import { targetName, type Target } from './stand-in-targets';

/** What a file gets for a packed target. */
export interface SharedPack {
  /** The unpacked app electron-builder wrote (stand-in-targets.ts's unpackedDir). */
  readonly appOut: string;
  /** electron-builder's output for the run that packed it (with the rest of its group). */
  readonly log: string;
}

/** Where the packs are and what they are packed from. */
export interface PackSource {
  /** The run's test build (tests/support/test-build.ts). */
  readonly buildRoot: string;
  /** The run's packs folder (global-setup.ts provides it as `pictorPacks`). */
  readonly packsDir: string;
  /** What packs one group into a folder: packGroup, unless a test counts the packs. */
  readonly pack?: (group: readonly Target[], dir: string) => Promise<GroupPack>;
}

/** How long a file waits for a pack another file claimed (far above one pack under load). */
const PACK_DEADLINE_MS = 400_000;
const LOOK_EVERY_MS = 100;

async function claim(dir: string): Promise<boolean> {
  try {
    await mkdir(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Writes `text` to `file` whole: a reader sees all of it or no file. */
async function writeWhole(file: string, text: string): Promise<void> {
  await writeFile(`${file}.partial`, text);
  await rename(`${file}.partial`, file);
}

async function packInto(dir: string, group: readonly Target[], source: PackSource): Promise<void> {
  try {
    const packed = source.pack
      ? await source.pack(group, dir)
      : await packGroup(source.buildRoot, dir, group, await electronVersion(source.buildRoot));
    await writeWhole(path.join(dir, 'result.json'), JSON.stringify(packed));
  } catch (error) {
    await writeWhole(path.join(dir, 'failed.txt'), String(error));
    throw error;
  }
}

async function readIfThere(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The pack in `dir` once whoever claimed it has written its result or its failure. */
async function finishedPack(dir: string, what: string): Promise<GroupPack> {
  const end = Date.now() + PACK_DEADLINE_MS;
  for (;;) {
    const result = await readIfThere(path.join(dir, 'result.json'));
    if (result !== null) return JSON.parse(result) as GroupPack;
    const failed = await readIfThere(path.join(dir, 'failed.txt'));
    if (failed !== null) throw new Error(`Packing ${what} failed in another test file: ${failed}`);
    if (Date.now() > end) {
      throw new Error(
        `Packing ${what} in another test file did not finish in ${PACK_DEADLINE_MS / 1000} s.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
  }
}

/** The version of the electron package the build uses: the one the stand-ins carry. */
async function electronVersion(buildRoot: string): Promise<string> {
  const manifest = path.join(buildRoot, 'node_modules', 'electron', 'package.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

/** A target's pack from {@link sharedPacks}; throws for a target it was not asked for. */
export type PackOf = (target: Target) => SharedPack;

/**
 * Every target in `targets` packed, with its group, by this file or another: the groups nobody
 * claimed yet are packed here, one at a time (each run takes a core), then the others are waited
 * for.
 */
export async function sharedPacks(targets: readonly Target[], source: PackSource): Promise<PackOf> {
  const groups = [...new Set(targets.map(groupOf))];
  const dirOf = (group: readonly Target[]): string => path.join(source.packsDir, groupName(group));
  for (const group of groups) {
    if (await claim(dirOf(group))) await packInto(dirOf(group), group, source);
  }
  const packs = new Map<string, SharedPack>();
  for (const group of groups) {
    const { appOut, log } = await finishedPack(dirOf(group), groupName(group));
    for (const target of targets) {
      const out = appOut[targetName(target)];
      if (out !== undefined) packs.set(targetName(target), { appOut: out, log });
    }
  }
  return (target) => {
    const pack = packs.get(targetName(target));
    if (!pack) throw new Error(`${targetName(target)} was not among the targets packed.`);
    return pack;
  };
}
