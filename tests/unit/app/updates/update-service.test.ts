/** The update service's schedule and states, over a scripted Updater and a manual clock. */
import { describe, expect, it } from 'vitest';
import type { UpdateMode, UpdateState } from '../../../../shared/domain/update-state';
import { updateStateSchema } from '../../../../shared/domain/update-state';
import { UserFacingError } from '../../../../electron/core/errors/user-facing-error';
import {
  CHECK_INTERVAL_MS,
  FIRST_CHECK_DELAY_MS,
  UpdateService,
} from '../../../../electron/app/updates/update-service';
import { silentLogger } from '../../../../electron/ports/logger';
import type { UpdateOffer, Updater, UpdaterCapability } from '../../../../electron/ports/updater';
import { ManualClock } from '../../../fakes/manual-clock';

/** An Updater whose answers the test scripts, counting what the service asked. */
class ScriptedUpdater implements Updater {
  checks = 0;
  downloads = 0;
  installs = 0;
  offer: UpdateOffer | null = null;
  checkError: unknown = null;
  downloadError: unknown = null;
  progress: number[] = [];
  private release: (() => void) | null = null;
  holdDownload = false;

  constructor(readonly capability: UpdaterCapability = { kind: 'install' }) {}

  check(): Promise<UpdateOffer | null> {
    this.checks++;
    return this.checkError ? Promise.reject(this.checkError) : Promise.resolve(this.offer);
  }

  async download(onProgress: (fraction: number) => void): Promise<void> {
    this.downloads++;
    for (const fraction of this.progress) onProgress(fraction);
    if (this.holdDownload) await new Promise<void>((resolve) => (this.release = resolve));
    if (this.downloadError) throw this.downloadError;
  }

  finishDownload(): void {
    this.release?.();
  }

  installOnQuit(): void {}
  beforeQuit(): Promise<void> {
    return Promise.resolve();
  }

  quitAndInstall(): void {
    this.installs++;
  }
}

function setup(options: { capability?: UpdaterCapability; mode?: UpdateMode } = {}) {
  const updater = new ScriptedUpdater(options.capability);
  const clock = new ManualClock();
  let mode: UpdateMode = options.mode ?? 'download';
  const service = new UpdateService({ updater, clock, logger: silentLogger, mode: () => mode });
  const seen: UpdateState[] = [];
  service.onDidChange((state) => seen.push(state));
  return { updater, clock, service, seen, setMode: (next: UpdateMode) => (mode = next) };
}

const offer = (version = '0.2.0'): UpdateOffer => ({ version, releaseNotes: 'Faster.' });

describe('UpdateService', () => {
  it('checks a little after start and then once a day, never before', async () => {
    const { updater, clock, service } = setup();
    service.start();
    await clock.advance(FIRST_CHECK_DELAY_MS - 1);
    expect(updater.checks).toBe(0);
    await clock.advance(1);
    expect(updater.checks).toBe(1);
    await clock.advance(CHECK_INTERVAL_MS - 1);
    expect(updater.checks).toBe(1);
    await clock.advance(1);
    expect(updater.checks).toBe(2);
    await clock.advance(CHECK_INTERVAL_MS);
    expect(updater.checks).toBe(3);
    service.dispose();
    await clock.advance(CHECK_INTERVAL_MS * 3);
    expect(updater.checks).toBe(3);
  });

  it('goes on to ready, telling every other listener, when a listener throws', async () => {
    const { updater, service, seen } = setup();
    service.onDidChange(() => {
      throw new Error('the window is gone');
    });
    const after: string[] = [];
    service.onDidChange((state) => after.push(state.status));
    updater.offer = offer();
    const state = await service.checkNow();
    expect(state.status).toBe('ready');
    expect(after).toEqual(seen.map((each) => each.status));
    expect(after.at(-1)).toBe('ready');
  });

  it('goes idle → checking → available → downloading → ready, and restarts only when asked', async () => {
    const { updater, service, seen } = setup();
    updater.offer = offer();
    updater.progress = [0.1, 0.104, 0.5, 1];

    const state = await service.checkNow();

    expect(seen.map((each) => each.status)).toEqual([
      'checking',
      'available',
      'downloading',
      'downloading',
      'downloading',
      'downloading',
      'ready',
    ]);
    expect(
      seen.filter((each) => each.status === 'downloading').map((each) => each.progress),
    ).toEqual([0, 0.1, 0.5, 1]);
    expect(state).toMatchObject({ status: 'ready', version: '0.2.0', releaseNotes: 'Faster.' });
    expect(state.progress).toBeUndefined();
    for (const each of seen) expect(updateStateSchema().safeParse(each).success).toBe(true);
    expect(updater.installs).toBe(0);
    service.restart();
    expect(updater.installs).toBe(1);
  });

  it('stays idle when the feed has nothing newer, and refuses a restart', async () => {
    const { updater, service } = setup();
    expect((await service.checkNow()).status).toBe('idle');
    expect(updater.downloads).toBe(0);
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(updater.installs).toBe(0);
  });

  it('only tells in "notify" mode, downloads when asked or when the setting changes', async () => {
    const { updater, service, setMode } = setup({ mode: 'notify' });
    updater.offer = offer();
    expect((await service.checkNow()).status).toBe('available');
    expect(updater.downloads).toBe(0);
    setMode('download');
    service.modeChanged();
    await Promise.resolve();
    await Promise.resolve();
    expect(updater.downloads).toBe(1);
  });

  it('never downloads or installs where it can only tell (Linux packages)', async () => {
    const { updater, service } = setup({ capability: { kind: 'notify' } });
    updater.offer = offer();
    expect(await service.checkNow()).toMatchObject({ status: 'available', canInstall: false });
    expect((await service.download()).status).toBe('available');
    expect(updater.downloads).toBe(0);
    expect(() => service.restart()).toThrow(UserFacingError);
  });

  it('is unavailable in development and does nothing at all', async () => {
    const { updater, clock, service } = setup({
      capability: { kind: 'none', reason: 'development' },
    });
    service.start();
    await clock.advance(CHECK_INTERVAL_MS * 2);
    expect(await service.checkNow()).toEqual({
      status: 'unavailable',
      reason: 'development',
      canInstall: false,
    });
    expect(updater.checks).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('turns a failed check into one problem code, and the schedule goes on', async () => {
    const { updater, clock, service } = setup();
    updater.checkError = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    service.start();
    await clock.advance(FIRST_CHECK_DELAY_MS);
    expect(service.state()).toMatchObject({ status: 'error', problem: 'offline' });
    updater.checkError = null;
    updater.offer = offer('0.3.0');
    await clock.advance(CHECK_INTERVAL_MS);
    expect(service.state()).toMatchObject({ status: 'ready', version: '0.3.0' });
    expect(service.state().problem).toBeUndefined();
  });

  it('keeps a refused download from being installed', async () => {
    const { updater, service } = setup();
    updater.offer = offer();
    updater.downloadError = Object.assign(new Error('sha512 checksum mismatch'), {
      code: 'ERR_CHECKSUM_MISMATCH',
    });
    expect(await service.checkNow()).toMatchObject({ status: 'error', problem: 'checksum' });
    expect(() => service.restart()).toThrow(UserFacingError);
    expect(updater.installs).toBe(0);
  });

  it('runs one check at a time: a second "Check now" joins the first', async () => {
    const { updater, service } = setup();
    updater.offer = offer();
    updater.holdDownload = true;
    const first = service.checkNow();
    const second = service.checkNow();
    await Promise.resolve();
    updater.finishDownload();
    expect(await first).toEqual(await second);
    expect(updater.checks).toBe(1);
    expect(updater.downloads).toBe(1);
  });

  it('does not check again once an update waits for the restart', async () => {
    const { updater, service } = setup();
    updater.offer = offer();
    await service.checkNow();
    expect((await service.checkNow()).status).toBe('ready');
    expect(updater.checks).toBe(1);
  });

  it('refuses a version it could not show (long pre-release tags), downloading nothing', async () => {
    const { updater, service } = setup();
    updater.offer = offer(`0.2.0-${'a'.repeat(200)}`);
    expect(await service.checkNow()).toMatchObject({ status: 'error', problem: 'feed_invalid' });
    expect(service.state().version).toBeUndefined();
    expect(updater.downloads).toBe(0);
  });

  it('says "install_failed" when the installer cannot start', async () => {
    const { updater, service } = setup();
    updater.offer = offer();
    await service.checkNow();
    updater.quitAndInstall = () => {
      throw new Error('spawn EACCES');
    };
    service.restart();
    expect(service.state()).toMatchObject({ status: 'error', problem: 'install_failed' });
  });
});
