/**
 * The version an installer says it installs (adapters/installer-version.ts), read from real files:
 * Windows executables Microsoft and others built (PE32 and PE32+, the vendored tools of
 * electron-winstaller, installed with electron-builder), the installers the update tests serve,
 * and crafted ones: every truncation, a resource tree that loops or claims more than the file
 * holds, random bytes, zips whose plist is missing, elsewhere or too large. Whatever the file, the
 * check refuses it unless the version read is exactly the one offered, and never throws anything
 * else or hangs.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkInstallerVersion,
  macBundleVersion,
  windowsProductVersion,
} from '../../../electron/adapters/installer-version';
import {
  infoPlist,
  macInstaller,
  windowsInstaller,
  zipOf,
} from '../../integration/updates/installer-files';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const VENDOR = join(process.cwd(), 'node_modules', 'electron-winstaller', 'vendor');

let dir: string;
beforeAll(async () => {
  dir = await tempFolder('installer-version');
});
afterAll(async () => {
  await removeFolder(dir);
});

let count = 0;
async function saved(bytes: Buffer, extension = 'exe'): Promise<string> {
  const file = join(dir, `${String(count++)}.${extension}`);
  await writeFile(file, bytes);
  return file;
}

async function refusal(file: string, format: 'pe' | 'zip', offered: string): Promise<unknown> {
  return checkInstallerVersion(file, format, offered).then(
    () => null,
    (error: unknown) => error,
  );
}

describe('the ProductVersion of real Windows executables', () => {
  it.each([
    ['signtool.exe', '6.1.7600.16385'],
    ['rcedit.exe', '0.2.0'],
    ['7z-x64.exe', '16.04'],
    ['7z-arm64.exe', '20.02 alpha'],
    ['Squirrel.exe', '2.0.1+eef37460ae'],
  ])('%s says %s', async (name, version) => {
    expect(await windowsProductVersion(join(VENDOR, name))).toBe(version);
  });

  it('an executable with no version resource says none, and is refused', async () => {
    const file = join(VENDOR, 'StubExecutable.exe');
    expect(await windowsProductVersion(file)).toBeNull();
    expect(await refusal(file, 'pe', '0.2.0')).toMatchObject({
      code: 'ERR_UPDATER_INSTALLER_VERSION',
    });
  });
});

describe('checkInstallerVersion', () => {
  it('takes a PE32 and a PE32+ installer of the version offered, refuses any other', async () => {
    for (const plus of [false, true]) {
      const file = await saved(windowsInstaller('0.2.0', { plus }));
      expect(await refusal(file, 'pe', '0.2.0')).toBeNull();
      for (const offered of ['0.2.1', '0.2.0-beta.1', '0.2', '0.2.0 ', '1.2.0'])
        expect(await refusal(file, 'pe', offered)).toMatchObject({
          code: 'ERR_UPDATER_INSTALLER_VERSION',
        });
    }
  });

  it('says the version found when it is plain, and no more of the file', async () => {
    const old = await refusal(await saved(windowsInstaller('0.0.9')), 'pe', '0.2.0');
    expect((old as Error).message).toBe(
      'The installer holds 0.0.9, not the version 0.2.0 the feed offered.',
    );
    const crafted = await refusal(
      await saved(windowsInstaller('0.2.0\u202e<script>')),
      'pe',
      '0.2.0',
    );
    expect((crafted as Error).message).toBe(
      'The installer holds no readable version, not the version 0.2.0 the feed offered.',
    );
  });

  it('refuses every truncation of an installer, without throwing anything else', async () => {
    const whole = windowsInstaller('0.2.0', { padding: 0 });
    for (let length = 0; length < whole.length; length += 7) {
      const error = await refusal(await saved(whole.subarray(0, length)), 'pe', '0.2.0');
      expect(error, `cut at ${String(length)}`).toMatchObject({
        code: 'ERR_UPDATER_INSTALLER_VERSION',
      });
    }
  });

  it('refuses a resource tree that loops or claims more than the file holds', async () => {
    const looping = windowsInstaller('0.2.0', { padding: 0 });
    // The name directory's entry points back at the root directory (offset 0, a subdirectory).
    looping.writeUInt32LE(0x80000000, 0x200 + 24 + 20);
    const claiming = windowsInstaller('0.2.0', { padding: 0 });
    claiming.writeUInt16LE(0xffff, 0x200 + 12);
    claiming.writeUInt16LE(0xffff, 0x200 + 14);
    // Its one real entry is not RT_VERSION: the search goes on into what is not there.
    claiming.writeUInt32LE(3, 0x200 + 16);
    const huge = windowsInstaller('0.2.0', { padding: 0 });
    huge.writeUInt32LE(0x7fffffff, 0x58 + 224 + 16);
    for (const bytes of [looping, claiming, huge, randomBytes(5_000), Buffer.alloc(0)])
      expect(await refusal(await saved(bytes), 'pe', '0.2.0')).toMatchObject({
        code: 'ERR_UPDATER_INSTALLER_VERSION',
      });
  });

  it("reads a macOS zip's app Info.plist, and refuses one elsewhere, missing or too large", async () => {
    const good = await saved(macInstaller('0.2.0'), 'zip');
    expect(await macBundleVersion(good)).toBe('0.2.0');
    expect(await refusal(good, 'zip', '0.2.0')).toBeNull();
    expect(await refusal(good, 'pe', '0.2.0')).not.toBeNull();
    const cases = [
      macInstaller('0.0.9'),
      macInstaller(null),
      zipOf({ 'Other/Pictor.app/Contents/Info.plist': infoPlist('0.2.0') }),
      zipOf({ 'Pictor.app/Info.plist': infoPlist('0.2.0') }),
      zipOf({ 'Pictor.app/Contents/Info.plist': infoPlist('0.2.0') + ' '.repeat(1024 * 1024) }),
      randomBytes(3_000),
    ];
    for (const bytes of cases) {
      const file = await saved(bytes, 'zip');
      expect(await refusal(file, 'zip', '0.2.0')).toMatchObject({
        code: 'ERR_UPDATER_INSTALLER_VERSION',
      });
    }
  });
});
