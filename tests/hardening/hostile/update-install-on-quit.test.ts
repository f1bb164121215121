/**
 * A downloaded update is installed when the app quits only while the user's setting is "download
 * in the background". electron-updater installs a finished download at quit on its own
 * (`autoInstallOnAppQuit`, which the adapter set once for good): a user who switched to "only
 * check and tell me" after the download finished still got it installed at the next quit. Now the
 * service tells the adapter at each change of the setting; the version stays ready for "Restart
 * to update", which installs it whatever the setting.
 *
 * On a real loopback feed, through the update service, the adapter and NsisUpdater as shipped;
 * the quit is the fake app's `quit` event electron-updater listens to, and the installer never
 * runs (its `install` is watched). macOS: Squirrel.Mac installs at quit whatever is said once it
 * holds the file, so it is handed the file only at quit (update-squirrel-at-quit.test.ts).
 */
import { MacUpdater, NsisUpdater } from 'electron-updater';
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

function serve(file: string): void {
  const bytes = installerBytes('0.2.0', 30_000, file);
  serveChannelFile(world().feed, { body: channelFile({ version: '0.2.0', file, bytes }) });
  world().feed.files.set(`/${file}`, { body: bytes });
}

/** An NsisUpdater over the feed whose installer is watched, never run; the setting given. */
async function nsis(initial: UpdateMode) {
  serve('Pictor-Setup-0.2.0.exe');
  const updater = await updaterFor(world(), new NsisUpdater());
  // BaseUpdater's install (protected in its types) is what its quit handler runs.
  const watched = updater as unknown as { install: (silent: boolean, run: boolean) => boolean };
  const installsAtQuit = vi.spyOn(watched, 'install').mockReturnValue(true);
  let mode = initial;
  const checked = rig(updater, { kind: 'install' }, () => mode);
  const setMode = (next: UpdateMode): void => {
    mode = next;
    checked.service.modeChanged();
  };
  return { ...checked, installsAtQuit, setMode };
}

/** The app quits normally (exit code 0), as Electron says it to electron-updater. */
function quit(): void {
  world().electron.app.emit('quit', {}, 0);
}

describe('a downloaded update at quit follows the setting', () => {
  it('is installed at quit while the setting is "download in the background"', async () => {
    const { service, installsAtQuit } = await nsis('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });

    quit();

    expect(installsAtQuit).toHaveBeenCalledTimes(1);
  });

  it('is not installed at quit after the user switched to "only tell me"; Restart still installs it', async () => {
    const { service, installsAtQuit, installs, setMode } = await nsis('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });

    setMode('notify');
    quit();

    expect(installsAtQuit).not.toHaveBeenCalled();
    expect(service.state()).toMatchObject({ status: 'ready', version: '0.2.0' });
    service.restart();
    expect(installs).toHaveBeenCalledTimes(1);
  });

  it('is installed at quit again once the user switches back', async () => {
    const { service, installsAtQuit, setMode } = await nsis('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready' });

    setMode('notify');
    setMode('download');
    quit();

    expect(installsAtQuit).toHaveBeenCalledTimes(1);
  });

  it('one the user downloaded while told only waits for "Restart to update"', async () => {
    const { service, installsAtQuit } = await nsis('notify');
    expect(await service.checkNow()).toMatchObject({ status: 'available' });
    expect(await service.download()).toMatchObject({ status: 'ready', version: '0.2.0' });

    quit();

    expect(installsAtQuit).not.toHaveBeenCalled();
  });

  it('macOS: a download finished while told only is never handed to Squirrel; Restart installs it', async () => {
    serve('Pictor-0.2.0-mac.zip');
    const updater = await updaterFor(world(), new MacUpdater());
    const { service } = rig(updater, { kind: 'install' }, 'notify');
    vi.mocked(updater.quitAndInstall).mockRestore();
    const squirrel = world().electron.autoUpdater;
    expect(await service.checkNow()).toMatchObject({ status: 'available' });

    expect(await service.download()).toMatchObject({ status: 'ready', version: '0.2.0' });

    // Squirrel, once it has the file, installs it at quit; it was not asked for it.
    expect(squirrel.received).toBeNull();
    service.restart();
    await vi.waitFor(() => expect(squirrel.installs).toBe(1), UNTIL);
    expect(squirrel.received).not.toBeNull();
  });
});
