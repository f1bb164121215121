/**
 * macOS: Squirrel.Mac installs a version as the app ends once it holds it, whatever the app says
 * later. electron-updater's MacUpdater hands it the verified zip (Squirrel fetches it from
 * MacUpdater's loopback server) as the download ends whenever `autoInstallOnAppQuit` is set then:
 * a user who chose "download in the background" and switched to "only check and tell me" after
 * the download finished still got it installed at the next quit. Now Squirrel is handed the zip
 * only at quit, while the setting is "download in the background" (the quit's clean-up waits for
 * it, bounded), or on the user's "Restart to update".
 *
 * On a real loopback feed through the update service, the adapter and MacUpdater as shipped;
 * Squirrel is the Electron fake's, which fetches the zip over real HTTP as Squirrel does.
 */
import { MacUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import type { UpdateMode } from '../../../shared/domain/update-state';
import { SQUIRREL_HANDOVER_MS } from '../../../electron/adapters/squirrel-handover';
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
const ZIP = 'Pictor-0.2.0-mac.zip';

/** MacUpdater over a feed offering 0.2.0 as a real zip; the setting as the test changes it. */
async function mac(initial: UpdateMode) {
  const bytes = installerBytes('0.2.0', 30_000, ZIP);
  serveChannelFile(world().feed, { body: channelFile({ version: '0.2.0', file: ZIP, bytes }) });
  world().feed.files.set(`/${ZIP}`, { body: bytes });
  const updater = await updaterFor(world(), new MacUpdater());
  let mode = initial;
  const checked = rig(updater, { kind: 'install' }, () => mode);
  // On macOS quitAndInstall is Squirrel's: watched on the fake, not on electron-updater.
  vi.mocked(updater.quitAndInstall).mockRestore();
  const setMode = (next: UpdateMode): void => {
    mode = next;
    checked.service.modeChanged();
  };
  return { ...checked, bytes, setMode, squirrel: world().electron.autoUpdater };
}

describe('Squirrel.Mac is handed a downloaded version only when it is to be installed', () => {
  it('"download in the background": not as the download ends; at quit, which waits for it', async () => {
    const { service, squirrel, bytes } = await mac('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });
    expect(squirrel.received).toBeNull();

    await service.beforeQuit();

    expect(squirrel.received?.equals(bytes)).toBe(true);
    expect(squirrel.installs).toBe(0);
    expect(world().escaped).toEqual([]);
  });

  it('switched to "only tell me" after the download finished: the quit hands nothing; Restart still installs', async () => {
    const { service, squirrel, bytes, setMode } = await mac('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready', version: '0.2.0' });

    setMode('notify');
    await service.beforeQuit();

    expect(squirrel.received).toBeNull();
    expect(service.state()).toMatchObject({ status: 'ready', version: '0.2.0' });
    service.restart();
    await vi.waitFor(() => expect(squirrel.installs).toBe(1), UNTIL);
    expect(squirrel.received?.equals(bytes)).toBe(true);
  });

  it('"Restart to update" handed it over: the quit it starts does not ask Squirrel again', async () => {
    const { service, squirrel } = await mac('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready' });
    const ask = vi.spyOn(squirrel, 'checkForUpdates');
    service.restart();
    await vi.waitFor(() => expect(squirrel.installs).toBe(1), UNTIL);

    await service.beforeQuit();

    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('switched back to "download in the background": the quit hands it again', async () => {
    const { service, squirrel, bytes, setMode } = await mac('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready' });

    setMode('notify');
    setMode('download');
    await service.beforeQuit();

    expect(squirrel.received?.equals(bytes)).toBe(true);
  });

  it('nothing downloaded, or a download the user asked for while told only: the quit hands nothing', async () => {
    const { service, squirrel } = await mac('notify');
    expect(await service.checkNow()).toMatchObject({ status: 'available' });
    await service.beforeQuit();
    expect(await service.download()).toMatchObject({ status: 'ready' });
    await service.beforeQuit();

    expect(squirrel.received).toBeNull();
  });

  it('a Squirrel that refuses the file, or never answers, does not hold the quit', async () => {
    const { service, squirrel, clock } = await mac('download');
    expect(await service.checkNow()).toMatchObject({ status: 'ready' });
    // Faults injected on purpose: Squirrel says it failed, then Squirrel says nothing.
    const ask = vi.spyOn(squirrel, 'checkForUpdates');
    ask.mockImplementationOnce(() => void squirrel.emit('error', new Error('signature')));
    await service.beforeQuit();

    ask.mockImplementationOnce(() => undefined);
    let ended = false;
    const quitting = service.beforeQuit().then(() => void (ended = true));
    await clock.advance(SQUIRREL_HANDOVER_MS - 1);
    expect(ended).toBe(false);
    await clock.advance(1);
    await quitting;

    expect(ask).toHaveBeenCalledTimes(2);
    expect(squirrel.listenerCount('update-downloaded')).toBe(1);
    expect(world().escaped).toEqual([]);
  });
});
