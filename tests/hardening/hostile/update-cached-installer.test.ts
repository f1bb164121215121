/**
 * An installer already in electron-updater's pending cache is taken without a download when the
 * feed offers a file of the same sha512: electron-updater skips its download task, where the
 * installer's own version is read (adapters/checked-installer.ts), and goes straight to adding
 * its quit handler (NSIS) or serving Squirrel.Mac. A cache an earlier Pictor filled before it
 * read versions (or a relabelled installer it took) was then kept unread: a feed that once served
 * an older signed release labelled as newer could have it installed by the Pictor that refuses
 * it. Now a cached installer is read like a downloaded one, before electron-updater's `done`
 * step; a refused one is deleted with the rest of the pending cache.
 *
 * The cache is written as electron-updater writes it (`pending/<file>` and `update-info.json`),
 * on a real loopback feed through the update service, the adapter, NsisUpdater and MacUpdater.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MacUpdater, NsisUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import { channelFile, sha512Base64 } from '../../integration/updates/update-feed';
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

const pending = (): string => join(world().dir, 'cache', 'pictor-updater', 'pending');

/** The feed offers 0.2.0 as `file` with these bytes, which an earlier Pictor already cached. */
async function cachedAndOffered(file: string, bytes: Buffer): Promise<void> {
  serveChannelFile(world().feed, { body: channelFile({ version: '0.2.0', file, bytes }) });
  world().feed.files.set(`/${file}`, { body: bytes });
  await mkdir(pending(), { recursive: true });
  await writeFile(join(pending(), file), bytes);
  const info = { fileName: file, sha512: sha512Base64(bytes), isAdminRightsRequired: false };
  await writeFile(join(pending(), 'update-info.json'), JSON.stringify(info));
}

const pendingFiles = (): Promise<string[]> => readdir(pending()).catch(() => []);

/** Installers in the cache, labelled 0.2.0 for an app at 0.1.0: what each one truly holds. */
const CACHED: [string, Buffer][] = [
  ['an older release (0.0.9)', installerBytes('0.0.9', 40_000)],
  ['the running release itself (0.1.0)', installerBytes('0.1.0', 40_000)],
  ['an executable with no version', windowsInstaller(null, { padding: 40_000 })],
];

describe('an installer taken from the cache is read like a downloaded one', () => {
  it.each(CACHED)('Windows: %s is refused and deleted', async (_, bytes) => {
    await cachedAndOffered(EXE, bytes);
    const checked = rig(await updaterFor(world(), new NsisUpdater()));

    const state = await checked.service.checkNow();

    expect(state).toMatchObject({
      status: 'error',
      problem: 'installer_version',
      version: '0.2.0',
    });
    // Taken from the cache: the feed was never asked for it.
    expect(world().feed.paths()).not.toContain(`/${EXE}`);
    await vi.waitFor(async () => expect(await pendingFiles()).toEqual([]), UNTIL);
    expect(world().electron.app.listenerCount('quit')).toBe(0);
    expect(() => checked.service.restart()).toThrow();
    expect(checked.installs).not.toHaveBeenCalled();
    expect(checked.warnings.join('\n')).toContain('ERR_UPDATER_INSTALLER_VERSION');
    expect(world().escaped).toEqual([]);

    // The next check downloads the true release served in its place.
    const release = installerBytes('0.2.0', 40_000);
    serveChannelFile(world().feed, {
      body: channelFile({ version: '0.2.0', file: EXE, bytes: release }),
    });
    world().feed.files.set(`/${EXE}`, { body: release });
    expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(world().feed.paths()).toContain(`/${EXE}`);
  });

  it('macOS: an older app in a cached zip is never handed to Squirrel', async () => {
    await cachedAndOffered(ZIP, installerBytes('0.0.9', 40_000, ZIP));
    const updater = await updaterFor(world(), new MacUpdater());
    const checked = rig(updater);
    vi.mocked(updater.quitAndInstall).mockRestore();

    expect(await checked.service.checkNow()).toMatchObject({
      status: 'error',
      problem: 'installer_version',
    });
    await checked.service.beforeQuit();

    expect(world().electron.autoUpdater.received).toBeNull();
    expect(world().feed.paths()).not.toContain(`/${ZIP}`);
    await vi.waitFor(async () => expect(await pendingFiles()).toEqual([]), UNTIL);
    expect(world().escaped).toEqual([]);
  });

  it('control: a cached installer of the version offered is used without a download', async () => {
    await cachedAndOffered(EXE, installerBytes('0.2.0', 40_000));
    const checked = rig(await updaterFor(world(), new NsisUpdater()));

    expect(await checked.service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });

    expect(world().feed.paths()).not.toContain(`/${EXE}`);
    expect(await pendingFiles()).toContain(EXE);
    expect(world().electron.app.listenerCount('quit')).toBe(1);
  });
});
