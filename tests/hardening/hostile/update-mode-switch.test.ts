/**
 * The user's update setting is obeyed while a download runs. With "download in the background" a
 * found version starts downloading at once; if the user then switches to "only check and tell
 * me", that download stops: its request closed, nothing left in electron-updater's cache, so
 * nothing is installed when the app quits (electron-updater installs a finished download on
 * quit), and the version is on offer again for the user's own "Download". A download the user
 * started themselves is theirs: a change of any setting does not stop it. On a real loopback feed
 * that holds the installer, through the update service, the adapter and NsisUpdater.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NsisUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import type { UpdateMode } from '../../../shared/domain/update-state';
import { channelFile } from '../../integration/updates/update-feed';
import { installerBytes } from '../../integration/updates/installer-files';
import {
  rig,
  serveChannelFile,
  updaterFor,
  useUpdaterWorld,
} from '../../integration/updates/updater-rig';
import { UNTIL } from '../../support/waits';

const world = useUpdaterWorld();
const INSTALLER = 'Pictor-Setup-0.2.0.exe';
const PATH = `/${INSTALLER}`;

/** A valid release whose installer the feed holds open after its headers; its bytes. */
function heldRelease(): Buffer {
  const bytes = installerBytes('0.2.0', 40_000);
  serveChannelFile(world().feed, {
    body: channelFile({ version: '0.2.0', file: INSTALLER, bytes }),
  });
  world().feed.files.set(PATH, { body: bytes, mode: 'stall' });
  return bytes;
}

async function cacheFiles(): Promise<string[]> {
  const entries = await readdir(join(world().dir, 'cache'), {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('the update setting is obeyed while a download runs', () => {
  it('switching to "only tell me" stops the download the setting started', async () => {
    const bytes = heldRelease();
    let mode: UpdateMode = 'download';
    const checked = rig(
      await updaterFor(world(), new NsisUpdater()),
      { kind: 'install' },
      () => mode,
    );
    const pending = checked.service.checkNow();
    await world().feed.whenRequested(PATH);
    await vi.waitFor(() => expect(checked.service.state().status).toBe('downloading'), UNTIL);
    world().feed.held.get(PATH)?.write(bytes.subarray(0, 10_000));

    mode = 'notify';
    checked.service.modeChanged();

    expect(await pending).toMatchObject({
      status: 'available',
      canInstall: true,
      version: '0.2.0',
    });
    expect(checked.service.state().problem).toBeUndefined();
    await world().feed.whenAbandoned(PATH);
    await vi.waitFor(async () => expect(await cacheFiles()).toEqual([]), UNTIL);
    expect(checked.installs).not.toHaveBeenCalled();
    expect(world().escaped).toEqual([]);

    // The user's own "Download" then fetches it whole.
    world().feed.files.set(PATH, { body: bytes });
    expect(await checked.service.download()).toMatchObject({ status: 'ready', version: '0.2.0' });
  });

  it('a download the user started goes on through a change of settings', async () => {
    const bytes = heldRelease();
    const checked = rig(
      await updaterFor(world(), new NsisUpdater()),
      { kind: 'install' },
      'notify',
    );
    expect(await checked.service.checkNow()).toMatchObject({ status: 'available' });
    const pending = checked.service.download();
    await world().feed.whenRequested(PATH);

    checked.service.modeChanged();
    world().feed.held.get(PATH)?.end(bytes);

    expect(await pending).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(world().feed.abandoned).toEqual([]);
  });

  it('switching back to "download" starts it again', async () => {
    const bytes = heldRelease();
    let mode: UpdateMode = 'notify';
    const checked = rig(
      await updaterFor(world(), new NsisUpdater()),
      { kind: 'install' },
      () => mode,
    );
    expect(await checked.service.checkNow()).toMatchObject({ status: 'available' });
    expect(world().feed.paths()).not.toContain(PATH);
    world().feed.files.set(PATH, { body: bytes });

    mode = 'download';
    checked.service.modeChanged();

    await vi.waitFor(() => expect(checked.service.state().status).toBe('ready'), UNTIL);
  });
});
