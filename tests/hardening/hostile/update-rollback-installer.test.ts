/**
 * A feed (squatted, or anyone who can answer for it) offers an OLDER release's installer, which
 * the publisher genuinely signed, labelled as a newer version with that file's own sha512 and
 * size. electron-updater compares only the label, verifies only the checksum the same feed gives
 * (and, on Windows, that the publisher signed it, which it did): it would install the old version
 * (a rollback to one with known flaws). Now the installer's own version is read before the file is
 * kept (adapters/installer-version.ts): it must be the version offered. A refused installer is
 * deleted, nothing is left in electron-updater's cache, no quit handler would install it, Squirrel
 * is never handed it; the user reads one sentence, and the next check takes a true release.
 *
 * On a real loopback feed through the update service, the adapter and electron-updater's
 * NsisUpdater and MacUpdater; the installers are real PE files and zips (installer-files.ts).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MacUpdater, NsisUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import { channelFile } from '../../integration/updates/update-feed';
import { installerBytes, windowsInstaller } from '../../integration/updates/installer-files';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
} from '../../integration/updates/updater-rig';
import { UNTIL } from '../../support/waits';

const world = useUpdaterWorld();
const EXE = 'Pictor-Setup-0.2.0.exe';
const ZIP = 'Pictor-0.2.0-mac.zip';

/** The feed offers 0.2.0 as `file`, with these bytes (their own sha512 and size). */
function offer(file: string, bytes: Buffer): void {
  serveChannelFile(world().feed, { body: channelFile({ version: '0.2.0', file, bytes }) });
  world().feed.files.set(`/${file}`, { body: bytes });
}

async function cacheFiles(): Promise<string[]> {
  const entries = await readdir(join(world().dir, 'cache'), {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** Installers dressed as 0.2.0 for an app at 0.1.0: what each one truly holds. */
const RELABELLED: [string, Buffer][] = [
  ['an older release (0.0.9)', installerBytes('0.0.9', 40_000)],
  ['the running release itself (0.1.0)', installerBytes('0.1.0', 40_000)],
  ['a prerelease of the offered version', installerBytes('0.2.0-beta.3', 40_000)],
  ['a later release (0.3.0): not what was offered', installerBytes('0.3.0', 40_000)],
  ['an executable with no version', windowsInstaller(null, { padding: 40_000 })],
];

describe('an installer relabelled as a newer version', () => {
  it.each(RELABELLED)('Windows: %s is refused and nothing is kept', async (_, bytes) => {
    offer(EXE, bytes);
    const checked = rig(await updaterFor(world(), new NsisUpdater()));

    const state = await checked.service.checkNow();

    expect(state).toMatchObject({
      status: 'error',
      problem: 'installer_version',
      version: '0.2.0',
    });
    expect(world().feed.paths()).toContain(`/${EXE}`);
    await vi.waitFor(async () => expect(await cacheFiles()).toEqual([]), UNTIL);
    expect(world().electron.app.listenerCount('quit')).toBe(0);
    expect(() => checked.service.restart()).toThrow();
    expect(checked.installs).not.toHaveBeenCalled();
    expect(checked.warnings.join('\n')).toContain('ERR_UPDATER_INSTALLER_VERSION');
    expect(world().escaped).toEqual([]);

    // The next check takes the true release served in its place.
    offer(EXE, installerBytes('0.2.0', 40_000));
    expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
  });

  it('macOS: an older app in the zip is never handed to Squirrel', async () => {
    offer(ZIP, installerBytes('0.0.9', 40_000, ZIP));
    const updater = await updaterFor(world(), new MacUpdater());
    const checked = rig(updater);
    vi.mocked(updater.quitAndInstall).mockRestore();
    const squirrel = world().electron.autoUpdater;

    const state = await checked.service.checkNow();

    expect(state).toMatchObject({
      status: 'error',
      problem: 'installer_version',
      version: '0.2.0',
    });
    expect(squirrel.feed).toBeNull();
    expect(squirrel.received).toBeNull();
    await vi.waitFor(async () => expect(await cacheFiles()).toEqual([]), UNTIL);
    expect(world().escaped).toEqual([]);
  });

  it('control: the zip of the version offered is handed to Squirrel at quit', async () => {
    const bytes = installerBytes('0.2.0', 40_000, ZIP);
    offer(ZIP, bytes);
    const updater = await updaterFor(world(), new MacUpdater());
    const checked = rig(updater);
    vi.mocked(updater.quitAndInstall).mockRestore();
    expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
    await checked.service.beforeQuit();
    expect(world().electron.autoUpdater.received?.equals(bytes)).toBe(true);
  });
});
