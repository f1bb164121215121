/**
 * The release targets packed in two electron-builder runs instead of four: the two macOS targets
 * in one run (`--mac dir:x64 dir:arm64`, as the release packs them on its macOS runner), Windows
 * and Linux in the other (`--win dir:x64 --linux dir:x64`). Each run still packs each of its
 * targets in full (its own Electron copy, app.asar, fuses, resources): only a run's own start is
 * shared (Node, electron-builder's modules, the configuration, `npm prefix`): the four targets on a
 * loaded 2-core machine, back to back, took 26.5 and 27.4 s of CPU in four runs, 23.9 and 23.8 s
 * in two. Two runs, not one, so two test files pack at once, one on each core.
 *
 * A run reads one `electronDist`: the macOS stand-in serves both macOS targets as an unpacked
 * distribution, as before; a run over several OSes is given a folder of stand-in zips named as
 * Electron's downloads are (`electron-v<version>-<platform>-<arch>.zip`), from which
 * electron-builder takes each target's own, as it takes a downloaded distribution.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import {
  createStandInFor,
  electronBuilderArgs,
  runElectronBuilder,
  targetName,
  unpackedDir,
  type Target,
} from './stand-in-targets';

/** The groups packed together, one electron-builder run each; every release target is in one. */
export const PACK_GROUPS: readonly (readonly Target[])[] = [
  [
    { os: 'mac', arch: 'x64' },
    { os: 'mac', arch: 'arm64' },
  ],
  [
    { os: 'win', arch: 'x64' },
    { os: 'linux', arch: 'x64' },
  ],
];

/** A group's name: its targets' names (also its pack's folder in shared-packs.ts). */
export const groupName = (group: readonly Target[]): string => group.map(targetName).join('+');

/** The group that packs `target`. */
export function groupOf(target: Target): readonly Target[] {
  const group = PACK_GROUPS.find((members) =>
    members.some((member) => targetName(member) === targetName(target)),
  );
  if (!group) throw new Error(`${targetName(target)} is in no pack group.`);
  return group;
}

const PLATFORM = { mac: 'darwin', win: 'win32', linux: 'linux' } as const;

/** `dir`'s files and folders, written into the zip `file` with their modes. */
async function zipFolder(dir: string, file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, full).split(path.sep).join('/');
    const { mode } = await stat(full);
    if (entry.isDirectory()) zip.addEmptyDirectory(name, { mode });
    else zip.addFile(full, name, { mode });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

/**
 * The `electronDist` for `group`: the stand-in distribution itself when the group is of one OS,
 * else a folder of the stand-ins zipped under Electron's download names.
 */
async function standInDist(group: readonly Target[], work: string, version: string) {
  const oses = [...new Set(group.map((target) => target.os))];
  if (oses.length === 1) {
    const dist = path.join(work, `electron-${oses[0]!}`);
    await createStandInFor(oses[0]!, dist, version);
    return dist;
  }
  const zips = path.join(work, 'electron-zips');
  await mkdir(zips, { recursive: true });
  for (const target of group) {
    const dist = path.join(work, `electron-${targetName(target)}`);
    await createStandInFor(target.os, dist, version);
    const zip = `electron-v${version}-${PLATFORM[target.os]}-${target.arch}.zip`;
    await zipFolder(dist, path.join(zips, zip));
  }
  return zips;
}

/** What one run packed: each target's unpacked app, and electron-builder's output. */
export interface GroupPack {
  readonly appOut: Readonly<Record<string, string>>;
  readonly log: string;
}

/**
 * Packs the already built app in `root` (the run's test build) for every target of `group` as a
 * folder, in one electron-builder run with electron-builder.yml and stand-in Electrons, offline
 * (stand-in-targets.ts's electronBuilderArgs).
 */
export async function packGroup(
  root: string,
  work: string,
  group: readonly Target[],
  electronVersion: string,
): Promise<GroupPack> {
  const dist = await standInDist(group, work, electronVersion);
  const output = path.join(work, 'release');
  const log = await runElectronBuilder(
    electronBuilderArgs(root, group, { dist, output, electronVersion }),
    { cwd: root, cache: path.join(work, 'cache'), what: groupName(group) },
  );
  const appOut = Object.fromEntries(
    group.map((target) => [targetName(target), path.join(output, unpackedDir(target))]),
  );
  return { appOut, log };
}
