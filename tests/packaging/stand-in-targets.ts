/**
 * Stand-in Electron distributions for macOS and Windows, and the electron-builder command line
 * that packs targets as folders from them (pack-groups.ts runs it), for checking each target's
 * file set on this Linux machine (the real distributions cannot be downloaded here).
 *
 * electron-builder copies the distribution and edits it: on macOS it reads and rewrites the
 * Info.plist of the app and of each helper app (app-builder-lib/out/electron/electronMac.js) and
 * renames the helpers; @electron/fuses flips the wire in `Electron Framework` (macOS) or the
 * executable (Windows, Linux). The layouts below carry just those files, with placeholder
 * contents and Electron's fuse wire.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import * as ResEdit from 'resedit';
import { markInstallRecordCurrent } from '../support/test-build';
import { createStandInElectron, DEFAULT_FUSE_WIRE } from './stand-in-electron';

const execFileAsync = promisify(execFile);
const CLOSED_PORT_URL = 'http://127.0.0.1:9/';

export type TargetOs = 'mac' | 'win' | 'linux';
export type TargetArch = 'x64' | 'arm64';

export interface Target {
  readonly os: TargetOs;
  readonly arch: TargetArch;
}

/** A target's name: `mac-arm64`, `linux-x64`… (also its pack's folder in shared-packs.ts). */
export const targetName = (target: Target): string => `${target.os}-${target.arch}`;

/** Every target `npm run dist` builds (electron-builder.yml). */
export const RELEASE_TARGETS: readonly Target[] = [
  { os: 'mac', arch: 'x64' },
  { os: 'mac', arch: 'arm64' },
  { os: 'win', arch: 'x64' },
  { os: 'linux', arch: 'x64' },
];

function plist(entries: Record<string, string>): string {
  const body = Object.entries(entries)
    .map(([key, value]) => `  <key>${key}</key>\n  <string>${value}</string>`)
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    body,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

async function writeExecutable(file: string, withFuses: boolean): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const text = Buffer.from('stand-in Electron binary: runs nothing\n');
  await writeFile(file, withFuses ? Buffer.concat([text, DEFAULT_FUSE_WIRE]) : text);
  await chmod(file, 0o755);
}

async function writeLicences(dir: string, version: string): Promise<void> {
  await writeFile(path.join(dir, 'LICENSE'), 'Copyright (c) Electron contributors (stand-in)\n');
  await writeFile(
    path.join(dir, 'LICENSES.chromium.html'),
    '<!doctype html><title>stand-in</title>\n',
  );
  await writeFile(path.join(dir, 'version'), `${version}\n`);
}

const MAC_HELPERS = ['', ' (Renderer)', ' (GPU)', ' (Plugin)'];

async function createMacDist(dir: string, version: string): Promise<void> {
  const contents = path.join(dir, 'Electron.app', 'Contents');
  await mkdir(path.join(contents, 'Resources'), { recursive: true });
  await writeFile(
    path.join(contents, 'Info.plist'),
    plist({
      CFBundleExecutable: 'Electron',
      CFBundleIdentifier: 'com.github.Electron',
      CFBundleName: 'Electron',
      CFBundleDisplayName: 'Electron',
      CFBundleIconFile: 'electron.icns',
      CFBundleVersion: version,
      CFBundleShortVersionString: version,
    }),
  );
  await writeExecutable(path.join(contents, 'MacOS', 'Electron'), false);
  await writeFile(path.join(contents, 'Resources', 'electron.icns'), 'stand-in icns\n');
  const frameworks = path.join(contents, 'Frameworks');
  await writeExecutable(
    path.join(frameworks, 'Electron Framework.framework', 'Electron Framework'),
    true,
  );
  for (const suffix of MAC_HELPERS) {
    const name = `Electron Helper${suffix}`;
    const helper = path.join(frameworks, `${name}.app`, 'Contents');
    await mkdir(helper, { recursive: true });
    await writeFile(
      path.join(helper, 'Info.plist'),
      plist({
        CFBundleExecutable: name,
        CFBundleIdentifier: `com.github.Electron.helper${suffix ? `.${suffix.slice(2, -1).toLowerCase()}` : ''}`,
        CFBundleName: name,
        CFBundleDisplayName: name,
      }),
    );
    await writeExecutable(path.join(helper, 'MacOS', name), false);
  }
  await writeLicences(dir, version);
}

const WIN_PLACEHOLDERS = [
  'chrome_100_percent.pak',
  'chrome_200_percent.pak',
  'd3dcompiler_47.dll',
  'ffmpeg.dll',
  'icudtl.dat',
  'libEGL.dll',
  'libGLESv2.dll',
  'resources.pak',
  'snapshot_blob.bin',
  'v8_context_snapshot.bin',
  'vk_swiftshader.dll',
  'vk_swiftshader_icd.json',
  'locales/en-US.pak',
];

/**
 * A real (empty) PE executable with the version resource electron-builder adds its asar integrity
 * beside (app-builder-lib/out/electron/electronWin.js), and the fuse wire after its sections.
 */
async function writeWindowsExecutable(file: string, version: string): Promise<void> {
  const exe = ResEdit.NtExecutable.createEmpty(false, false);
  const resource = ResEdit.NtExecutableResource.from(exe);
  const info = ResEdit.Resource.VersionInfo.createEmpty();
  info.setStringValues(
    { lang: 1033, codepage: 1200 },
    { ProductName: 'Electron', FileDescription: 'Electron (stand-in)', ProductVersion: version },
  );
  info.outputToResourceEntries(resource.entries);
  resource.outputResource(exe);
  exe.setExtraData(DEFAULT_FUSE_WIRE);
  await writeFile(file, Buffer.from(exe.generate()));
}

async function createWinDist(dir: string, version: string): Promise<void> {
  await mkdir(path.join(dir, 'locales'), { recursive: true });
  await mkdir(path.join(dir, 'resources'), { recursive: true });
  await writeWindowsExecutable(path.join(dir, 'electron.exe'), version);
  for (const name of WIN_PLACEHOLDERS) await writeFile(path.join(dir, name), `stand-in ${name}\n`);
  await writeLicences(dir, version);
}

/** Writes a stand-in Electron distribution for `os` into `dir`. */
export async function createStandInFor(os: TargetOs, dir: string, version: string): Promise<void> {
  if (os === 'mac') await createMacDist(dir, version);
  else if (os === 'win') await createWinDist(dir, version);
  else await createStandInElectron(dir, version);
}

/** Where electron-builder leaves the unpacked app of a target, under its output folder. */
export function unpackedDir(target: Target): string {
  if (target.os === 'mac') return target.arch === 'arm64' ? 'mac-arm64' : 'mac';
  if (target.os === 'win') return target.arch === 'arm64' ? 'win-arm64-unpacked' : 'win-unpacked';
  return target.arch === 'arm64' ? 'linux-arm64-unpacked' : 'linux-unpacked';
}

/** The folder holding app.asar inside a target's unpacked app. */
export function resourcesDir(target: Target, appOut: string): string {
  return target.os === 'mac'
    ? path.join(appOut, 'Pictor.app', 'Contents', 'Resources')
    : path.join(appOut, 'resources');
}

/**
 * electron-builder's command line (cli.js and its arguments) packing the already built app in
 * `root` (the run's test build, laid out like the repository: tests/support/test-build.ts) for
 * `targets` as folders (`--mac dir:x64 dir:arm64 …`), with electron-builder.yml and the stand-in
 * Electron in `dist`, offline. Only what needs a tool this machine lacks is changed: Windows
 * executable resources (rcedit runs under Wine here) and macOS ad-hoc signing (codesign) are
 * skipped; neither changes which files ship. pack-groups.ts runs it.
 */
export function electronBuilderArgs(
  root: string,
  targets: readonly Target[],
  options: { dist: string; output: string; electronVersion: string },
): string[] {
  const oses = [...new Set(targets.map((target) => target.os))];
  const platforms = oses.flatMap((os) => [
    `--${os}`,
    ...targets.filter((target) => target.os === os).map((target) => `dir:${target.arch}`),
  ]);
  return [
    path.join(root, 'node_modules/electron-builder/cli.js'),
    ...platforms,
    '--projectDir',
    root,
    '--config',
    'electron-builder.yml',
    `-c.electronDist=${options.dist}`,
    `-c.electronVersion=${options.electronVersion}`,
    `-c.electronDownload.mirror=${CLOSED_PORT_URL}`,
    `-c.directories.output=${options.output}`,
    ...(oses.includes('win') ? ['-c.win.signAndEditExecutable=false'] : []),
    ...(oses.includes('mac')
      ? ['-c.electronFuses.resetAdHocDarwinSignature=false', '-c.mac.identity=null']
      : []),
    '--publish',
    'never',
  ];
}

/**
 * Runs `node <args>` (electron-builder's cli.js and its arguments) offline: every download
 * address closed, its cache in `cache`, no signing identity looked for. npm's record of the
 * install is marked current first (tests/support/test-build.ts says why). Its output, or an error
 * holding it.
 */
export async function runElectronBuilder(
  args: readonly string[],
  options: { cwd: string; cache: string; what: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  await markInstallRecordCurrent();
  const env = {
    ...process.env,
    ...options.env,
    ELECTRON_BUILDER_CACHE: options.cache,
    ELECTRON_BUILDER_BINARIES_MIRROR: CLOSED_PORT_URL,
    ELECTRON_BUILDER_BINARIES_ALLOW_HTTP: 'true',
    ELECTRON_MIRROR: CLOSED_PORT_URL,
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
  };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [...args], {
      cwd: options.cwd,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return `${stdout}\n${stderr}`;
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `electron-builder ${options.what} failed: ${output.message}\n${output.stdout ?? ''}\n${output.stderr ?? ''}`,
      { cause: error },
    );
  }
}
