/**
 * A stand-in for an unpacked Electron distribution for linux-x64, for packaging without the real
 * one (it cannot be downloaded here). electron-builder (app-builder-lib/out/electron/
 * ElectronFramework.js) copies an `electronDist` folder as it is, renames `electron` to the
 * app's executable name and moves `LICENSE` to `LICENSE.electron.txt`; the rest it copies
 * untouched. The files below mirror the real archive's layout with placeholder contents.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The marker @electron/fuses searches for in an Electron binary. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * Electron's fuse wire as shipped (version 1, eight fuses, '1' on and '0' off): RunAsNode on,
 * cookie encryption off, NODE_OPTIONS on, --inspect on, asar integrity off, only-asar off,
 * browser-specific V8 snapshot off, file:// privileges on. Carried by the stand-in executable so
 * an afterPack hook that flips fuses works on it as on the real binary.
 */
export const DEFAULT_FUSE_WIRE = Buffer.concat([
  Buffer.from(FUSE_SENTINEL, 'latin1'),
  Buffer.from([1, 8]),
  Buffer.from('10110001', 'latin1'),
]);

/** Placeholder files of the real linux-x64 archive, besides the executable and the licences. */
const PLACEHOLDERS = [
  'chrome-sandbox',
  'chrome_crashpad_handler',
  'chrome_100_percent.pak',
  'chrome_200_percent.pak',
  'icudtl.dat',
  'libEGL.so',
  'libGLESv2.so',
  'libffmpeg.so',
  'libvk_swiftshader.so',
  'resources.pak',
  'snapshot_blob.bin',
  'v8_context_snapshot.bin',
  'vk_swiftshader_icd.json',
  'locales/en-US.pak',
  'locales/fr.pak',
];

/** What {@link createStandInElectron} wrote. */
export interface StandInElectron {
  readonly dir: string;
  readonly version: string;
}

function executableScript(version: string): Buffer {
  const script = [
    '#!/bin/sh',
    `# Stand-in for Electron ${version} in packaging tests; it runs nothing.`,
    'echo "stand-in Electron: not a real binary" >&2',
    'exit 1',
    '# fuse wire: ',
  ].join('\n');
  return Buffer.concat([Buffer.from(script, 'utf8'), DEFAULT_FUSE_WIRE, Buffer.from('\n')]);
}

/** Writes a stand-in Electron distribution for `version` into `dir` (created if needed). */
export async function createStandInElectron(
  dir: string,
  version: string,
): Promise<StandInElectron> {
  await mkdir(path.join(dir, 'locales'), { recursive: true });
  await mkdir(path.join(dir, 'resources'), { recursive: true });
  const executable = path.join(dir, 'electron');
  await writeFile(executable, executableScript(version));
  await chmod(executable, 0o755);
  await writeFile(path.join(dir, 'LICENSE'), 'Copyright (c) Electron contributors (stand-in)\n');
  await writeFile(
    path.join(dir, 'LICENSES.chromium.html'),
    '<!doctype html><title>stand-in</title>\n',
  );
  await writeFile(path.join(dir, 'version'), `${version}\n`);
  for (const name of PLACEHOLDERS) {
    await writeFile(path.join(dir, name), `stand-in ${name}\n`);
  }
  await chmod(path.join(dir, 'chrome_crashpad_handler'), 0o755);
  return { dir, version };
}
